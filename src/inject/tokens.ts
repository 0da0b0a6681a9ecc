/**
 * The token count `assemble` budgets with when the app passes no tokenizer: an upper bound, so a
 * prompt assembled with it never holds more tokens than the budget under a real tokenizer.
 *
 * The bound: the text's UTF-8 length in bytes, plus one. Byte-level BPE tokenizers (GPT-2,
 * cl100k, o200k, Llama 3) and SentencePiece with byte fallback (Llama 2, Mistral, Gemma) never
 * emit a token that covers less than one byte of the input: merges only join bytes, and a
 * character outside the vocabulary falls back to one token per byte. SentencePiece may add one
 * word-start marker of its own in front, hence the one. So an ASCII character (English) costs
 * at most one token, a CJK character at most three (its UTF-8 length), an emoji at most four.
 *
 * The price is an overcount: English text runs about four bytes a token in those vocabularies,
 * so the default packs roughly a quarter of what the budget could hold. Pass the app's own
 * tokenizer as `countTokens` to pack tightly.
 */
export function estimateTokens(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // A surrogate pair: one code point of four bytes.
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes + 1;
}
