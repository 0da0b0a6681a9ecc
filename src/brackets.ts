/**
 * Brackets and slashes that other blocks draw like the ASCII ones the prompt's markup is made of
 * (`⟨/MEMORIES⟩`, `［confidence: high］`), beyond those NFKC folds. Shared by the defences and
 * inject, apart from both so the main chunk's inject does not load the defences.
 */
const BRACKET_LOOKALIKES = new Map<string, string>(
  Object.entries({ '<': '‹⟨〈《❮❬⧼⟪ᐸ˂', '>': '›⟩〉》❯❭⧽⟫ᐳ˃', '[': '⟦【〔〖〘〚⁅❲', ']': '⟧】〕〗〙〛⁆❳', '/': '∕⁄⧸' }).flatMap(([ascii, lookalikes]) => [...lookalikes].map((char) => [char, ascii] as const)),
);
const BRACKET_LOOKALIKE = new RegExp(`[${[...BRACKET_LOOKALIKES.keys()].join('')}]`, 'gu');

/**
 * The text with compatibility forms folded (NFKC: fullwidth "＜", small "﹤") and every lookalike
 * bracket or slash drawn as the ASCII one it looks like. Letters stay the user's: inject escapes
 * what this returns, and once every bracket is escaped no letter can close the block.
 */
export function foldBrackets(text: string): string {
  return text.normalize('NFKC').replace(BRACKET_LOOKALIKE, (char) => BRACKET_LOOKALIKES.get(char) ?? char);
}
