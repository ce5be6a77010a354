-- the list search ignores accents (search-fold.ts): the words indexed before are folded the same way
UPDATE "ticket_search" SET "words" = strip(to_tsvector('simple'::regconfig,
  translate(array_to_string(tsvector_to_array("words"), ' '), 'ÁÀÂÃÄÅáàâãäåÉÈÊËéèêëÍÌÎÏíìîïÓÒÔÕÖóòôõöÚÙÛÜúùûüÇçÑñÝýÿ', 'AAAAAAaaaaaaEEEEeeeeIIIIiiiiOOOOOoooooUUUUuuuuCcNnYyy')))
WHERE "words"::text ~ '[^\x01-\x7f]';
