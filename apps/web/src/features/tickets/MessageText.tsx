import { Fragment } from 'react';

/** WhatsApp-style *bold* and _italic_ inside a text, line breaks kept; everything else as plain text. */
export const MessageText = ({ text }: { text: string }) => {
  const parts = text.split(/(\*[^*\n]+\*|_[^_\n]+_)/g);

  return (
    <>
      {parts.map((part, index) => {
        const key = `${index}-${part.length}`;
        if (/^\*[^*\n]+\*$/.test(part)) {
          return <strong key={key}>{part.slice(1, -1)}</strong>;
        }
        if (/^_[^_\n]+_$/.test(part)) {
          return <em key={key}>{part.slice(1, -1)}</em>;
        }

        return <Fragment key={key}>{part}</Fragment>;
      })}
    </>
  );
};
