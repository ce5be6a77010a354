/** Placeholder so the shell builds; the feature engineer replaces this file. */
const HelpsPage = () => null;

export default HelpsPage;
