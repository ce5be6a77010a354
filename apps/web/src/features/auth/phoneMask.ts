/** (99) 99999-9999, or (99) 9999-9999 while there are 10 digits or fewer; at most 11 digits (spec 1 §5). */
export const maskPhone = (value: string): string => {
  const d = value.replace(/\D/g, '').slice(0, 11);
  if (d.length === 0) {
    return '';
  }
  if (d.length <= 2) {
    return `(${d}`;
  }
  const ddd = d.slice(0, 2);
  const rest = d.slice(2);
  const split = d.length === 11 ? 5 : 4;
  if (rest.length <= split) {
    return `(${ddd}) ${rest}`;
  }

  return `(${ddd}) ${rest.slice(0, split)}-${rest.slice(split)}`;
};
