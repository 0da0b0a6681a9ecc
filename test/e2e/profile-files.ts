/**
 * Reading a Chromium profile's IndexedDB files from outside the browser: what an attacker with
 * the disk (or LevelDB's own logs) would see.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const entry of entries) {
    const path = join(dir, entry);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) continue;
    if (stat.isDirectory()) out.push(...filesUnder(path));
    else if (stat.isFile()) out.push(path);
  }
  return out;
}

function countOccurrences(haystack: Buffer, needle: Buffer): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) count += 1;
  return count;
}

/** Occurrences of `text` (UTF-8, UTF-16LE and UTF-16BE) in every file of the profile's IndexedDB folders. */
export function scanIndexedDbFiles(profile: string, text: string): { hits: number; files: number; bytes: number; where: string[] } {
  const le = Buffer.from(text, 'utf16le');
  const be = Buffer.from(le);
  be.swap16();
  const needles = [Buffer.from(text, 'utf8'), le, be];
  const roots = filesUnder(profile).filter((path) => /[/\\]IndexedDB[/\\]/.test(path));
  let hits = 0;
  let bytes = 0;
  const where: string[] = [];
  for (const path of roots) {
    let content: Buffer;
    try {
      content = readFileSync(path);
    } catch {
      continue; // a file LevelDB removed between the listing and the read
    }
    bytes += content.length;
    const found = needles.reduce((sum, needle) => sum + countOccurrences(content, needle), 0);
    if (found) {
      hits += found;
      where.push(`${path.slice(profile.length + 1)}×${found}`);
    }
  }
  return { hits, files: roots.length, bytes, where };
}
