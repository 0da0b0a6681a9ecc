/**
 * Lookalike brackets: what the prompt's markup is made of (`<MEMORIES>`, `[confidence: …]`) drawn
 * with other characters. Shared by the defences (detection) and inject (escaping), kept apart
 * from both so the main chunk's inject does not load the defences.
 */

/**
 * Brackets and slashes that other blocks draw like the ASCII ones the prompt's markup is made of
 * (`⟨/MEMORIES⟩`, `［confidence: high］`), beyond those NFKC already folds (fullwidth, small forms).
 */
const BRACKET_LOOKALIKES: Readonly<Record<string, string>> = {
  '‹': '<',
  '⟨': '<',
  '〈': '<',
  '《': '<',
  '❮': '<',
  '❬': '<',
  '⧼': '<',
  '⟪': '<',
  ᐸ: '<',
  '˂': '<',
  '›': '>',
  '⟩': '>',
  '〉': '>',
  '》': '>',
  '❯': '>',
  '❭': '>',
  '⧽': '>',
  '⟫': '>',
  ᐳ: '>',
  '˃': '>',
  '⟦': '[',
  '【': '[',
  '〔': '[',
  '〖': '[',
  '〘': '[',
  '〚': '[',
  '⁅': '[',
  '❲': '[',
  '⟧': ']',
  '】': ']',
  '〕': ']',
  '〗': ']',
  '〙': ']',
  '〛': ']',
  '⁆': ']',
  '❳': ']',
  '∕': '/',
  '⁄': '/',
  '⧸': '/',
};
const BRACKET_LOOKALIKE = new RegExp(`[${Object.keys(BRACKET_LOOKALIKES).join('')}]`, 'gu');

/**
 * The text with compatibility forms folded (NFKC: fullwidth "＜", small "﹤") and every lookalike
 * bracket or slash drawn as the ASCII one it looks like. Letters stay the user's: inject escapes
 * what this returns, and once every bracket is escaped no letter can close the block.
 */
export function foldBrackets(text: string): string {
  return text.normalize('NFKC').replace(BRACKET_LOOKALIKE, (char) => BRACKET_LOOKALIKES[char] ?? char);
}
