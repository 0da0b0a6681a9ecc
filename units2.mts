import { speechCandidates } from '/work/main/src/extract/speech/extractor.ts';
const fill = (unit: string, size: number) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
for (const u of [',', ',,,, ', 'a,', 'i,', 'I am vegan. I live in Berlin. My sister Ana lives in Lisbon. ']) { const t = fill(u, 200_000); speechCandidates(t, 0); let best = Infinity; for (let i = 0; i < 2; i++) { const s = process.cpuUsage(); speechCandidates(t, 0); const d = process.cpuUsage(s); best = Math.min(best, (d.user + d.system) / 1000); } console.log(JSON.stringify(u).padEnd(70), best.toFixed(1)); }
