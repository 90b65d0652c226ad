/**
 * `node --import tsx test/helpers/lock-holder.ts <dir> <goAtEpochMs> [staleAfterMs]`: waits until
 * goAtEpochMs (so that several of these try at the same moment), tries DATA_DIR's lock once,
 * prints `held` or `locked <holder pid>`, and then stays alive until it is killed.
 */
import { DataDirLockedError, lockDataDir } from '../../src/store/data-dir-lock.ts';

const [dir, goAt, staleAfterMs] = process.argv.slice(2);
await new Promise((r) => setTimeout(r, Math.max(0, Number(goAt) - Date.now())));
try {
  lockDataDir(dir!, staleAfterMs ? { staleAfterMs: Number(staleAfterMs) } : {});
  console.log('held');
} catch (err) {
  if (!(err instanceof DataDirLockedError)) throw err;
  console.log(`locked ${err.holder.pid}`);
}
setInterval(() => {}, 60_000);
