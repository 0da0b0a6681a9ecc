// Prints the closing line CI reads, `N passed, N failed`, from vitest's JSON report.
// A run that never reached vitest (typecheck or build failed) counts as one failure.
import { existsSync, readFileSync } from 'node:fs';

const [file, status = '0'] = process.argv.slice(2);
if (!file || !existsSync(file)) {
  console.log(`ci: no test report at ${file} (npm test exited ${status} before the tests ran)`);
  console.log('0 passed, 1 failed');
  process.exit(0);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
const passed = report.numPassedTests ?? 0;
// A file that failed outside its tests (load error, failing beforeAll) counts once: its tests
// were never run, or were reported as skipped, so they are not in numFailedTests.
const failedSuites = (report.testResults ?? []).filter((suite) => suite.status === 'failed' && !(suite.assertionResults ?? []).some((test) => test.status === 'failed')).length;
const counted = (report.numFailedTests ?? 0) + failedSuites;
// A run that failed outside every test counts once too: vitest's JSON report calls it a success
// when its only error is an unhandled one, and a type error anywhere in the project is one (the
// `types` project's tsc is the run's type check: "Unhandled Source Error").
const failed = counted + (counted === 0 && status !== '0' ? 1 : 0);
if (counted === 0 && status !== '0') console.log(`ci: npm test exited ${status} with no failed test: an error outside the tests (a type error, an unhandled error, a leaked server), printed above`);
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
