import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { parseWhatsAppText, stripWhatsAppFormat } from './whatsappFormat';
import { WhatsAppText } from './WhatsAppText';

describe('parseWhatsAppText', () => {
  it('reads bold, italic, strike, monospace and inline code', () => {
    expect(parseWhatsAppText('a *b* _c_ ~d~ ```e``` `f`')).toEqual([
      'a ',
      { kind: 'bold', children: ['b'] },
      ' ',
      { kind: 'italic', children: ['c'] },
      ' ',
      { kind: 'strike', children: ['d'] },
      ' ',
      { kind: 'mono', children: ['e'] },
      ' ',
      { kind: 'code', children: ['f'] },
    ]);
  });

  it('nests styles, but takes code literally', () => {
    expect(parseWhatsAppText('*_both_*')).toEqual([
      { kind: 'bold', children: [{ kind: 'italic', children: ['both'] }] },
    ]);
    expect(parseWhatsAppText('```*not bold*```')).toEqual([{ kind: 'mono', children: ['*not bold*'] }]);
  });

  it('keeps markers that do not open or close as text', () => {
    for (const text of ['2*3*4', 'snake_case_name', '* not bold*', '*not bold *', 'a*b', '**', '*open\nclose*']) {
      expect(parseWhatsAppText(text)).toEqual([text]);
    }
  });

  it('formats at punctuation and line edges: the signed body', () => {
    expect(parseWhatsAppText('*Ana Souza:*\nOlá, (_tudo bem_?)')).toEqual([
      { kind: 'bold', children: ['Ana Souza:'] },
      '\nOlá, (',
      { kind: 'italic', children: ['tudo bem'] },
      '?)',
    ]);
  });

  it('strips the markers for previews', () => {
    expect(stripWhatsAppFormat('*Ana:*\n_oi_ ~x~ 2*3')).toBe('Ana:\noi x 2*3');
  });
});

describe('WhatsAppText', () => {
  it('renders elements and escapes any HTML in the text', () => {
    const html = renderToStaticMarkup(<WhatsAppText text={'*<b>hi</b>* _<img src=x onerror=alert(1)>_ ~gone~'} />);
    expect(html).toContain('<strong>&lt;b&gt;hi&lt;/b&gt;</strong>');
    expect(html).toContain('<em>&lt;img src=x onerror=alert(1)&gt;</em>');
    expect(html).toContain('<s>gone</s>');
    expect(html).not.toContain('<img');
  });
});
