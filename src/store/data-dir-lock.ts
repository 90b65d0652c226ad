/**
 * One process at a time on an embedded database folder (DATA_DIR). PGlite does not notice a second
 * process on its folder: both serve, each from its own copy in memory, and whatever one of them
 * wrote is lost when the other writes over it. So the folder carries a lock file for the lifetime
 * of the process that opened it.
 *
 * Node has no flock(), and a lock file outlives a process that dies without releasing it (SIGKILL,
 * power loss). Hence:
 * - Taking it: the holder's description is written to a private temporary file, fsynced, then
 *   hard-linked to the lock's name; link() fails if the name exists, so a lock file is complete
 *   from the moment it exists and exactly one of several processes starting together gets it.
 * - A lock is stale when its holder is gone. Written on this host and in this pid namespace: the
 *   host has booted since (boot id), or the pid is not running, is a zombie, or now belongs to a
 *   process started at another time (/proc/<pid>/stat start time, so a reused pid does not count).
 *   Written elsewhere (another host, or another pid namespace: a container sharing the folder, or
 *   this container before a restart), the pid means nothing here: the holder refreshes the file's
 *   mtime every HEARTBEAT_MS, and a start watches it for up to STALE_AFTER_MS before it takes over.
 *   Without /proc (macOS) a reused pid keeps the lock until the operator removes the file.
 * - Breaking a stale lock: a process first takes a second lock named after that lock's random
 *   nonce (the same way, recursively), re-reads the lock and removes it only if it is still the
 *   stale one, then competes for the lock like anyone else. So of several processes finding the
 *   same stale lock one removes it, and none ever removes a newer, live one.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

export const LOCK_FILE = 'booking-api.lock';
const HEARTBEAT_MS = 2_000;
/** a holder we cannot check by pid is gone when its heartbeat has not moved for this long */
const STALE_AFTER_MS = 10_000;
const CLOCK_SLACK_MS = 60_000;
/** an unparsable lock younger than this may still be being written (the no-link fallback below) */
const UNREADABLE_GRACE_MS = 2_000;
/** breaks of breaks: each level only happens when a process died in the middle of breaking */
const MAX_DEPTH = 3;

export interface LockHolder {
  pid: number;
  /** /proc/<pid>/stat field 22 (clock ticks after boot); absent without /proc */
  startTicks?: number;
  startedAt: string;
  host: string;
  pidNamespace?: string;
  bootId?: string;
  nonce: string;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly holder: LockHolder,
  ) {
    const where = holder.host === hostname() ? '' : ` on host ${holder.host}`;
    super(`DATA_DIR ${dir} is in use by process ${holder.pid}${where} (running since ${holder.startedAt})`);
    this.name = 'DataDirLockedError';
  }
}

export interface DataDirLock {
  readonly path: string;
  readonly holder: LockHolder;
  /** removes the lock file if it is still this process's; safe to call twice */
  release(): void;
}

// Paths this process holds: a second open inside one process must be refused too, and our own pid
// in a lock file is otherwise read as an earlier life of this pid (pid 1 in a restarted container).
const heldHere = new Set<string>();

function readOr(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

function procStat(pid: number): { state: string; startTicks: number } | undefined {
  const text = readOr(`/proc/${pid}/stat`);
  if (!text) return undefined;
  // "pid (comm) state ppid ..."; comm may hold spaces and parentheses, so split after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0] ?? '', startTicks: Number(fields[19]) };
}

function describeMe(): LockHolder {
  let pidNamespace: string | undefined;
  try {
    pidNamespace = readlinkSync('/proc/self/ns/pid');
  } catch {
    pidNamespace = undefined;
  }
  return {
    pid: process.pid,
    startTicks: procStat(process.pid)?.startTicks,
    startedAt: new Date(Date.now() - process.uptime() * 1000).toISOString(),
    host: hostname(),
    pidNamespace,
    bootId: readOr('/proc/sys/kernel/random/boot_id'),
    nonce: randomBytes(12).toString('hex'),
  };
}

function errno(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException).code;
}

/** Creates `path` holding `content` unless it exists; false when it does. */
function createExclusive(path: string, content: string): boolean {
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  writeDurably(tmp, 'wx', content);
  try {
    linkSync(tmp, path);
    return true;
  } catch (err) {
    if (errno(err) === 'EEXIST') return false;
    // A file system without hard links: O_EXCL instead; readers give a half-written lock a grace.
    if (['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS'].includes(errno(err) ?? '')) {
      try {
        writeDurably(path, 'wx', content);
        return true;
      } catch (e) {
        if (errno(e) === 'EEXIST') return false;
        throw e;
      }
    }
    throw err;
  } finally {
    removeQuietly(tmp);
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

function writeDurably(path: string, flags: string, content: string): void {
  const fd = openSync(path, flags, 0o644);
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function parse(raw: string): LockHolder | undefined {
  try {
    const h = JSON.parse(raw) as LockHolder;
    return Number.isInteger(h.pid) && h.pid > 0 && typeof h.nonce === 'string' ? h : undefined;
  } catch {
    return undefined;
  }
}

function mtimeMs(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Whether the holder of the lock at `path` may still be running. */
function alive(path: string, h: LockHolder, me: LockHolder, staleAfterMs: number): boolean {
  // Its pid means something here only on this very boot of this host in this pid namespace. A
  // hostname and a namespace id alone can match on another machine (cloned VMs, containers with a
  // fixed hostname all have the first namespace's id), and a boot id that differs may be another
  // machine's as well as an earlier boot of this one: both are judged by the heartbeat. A lock from
  // before a reboot has long stopped beating, so it is taken over at once.
  if (h.host === me.host && h.pidNamespace === me.pidNamespace && h.bootId === me.bootId) {
    if (h.pid === me.pid) return false;
    try {
      process.kill(h.pid, 0);
    } catch (err) {
      // EPERM: it exists, under another user.
      if (errno(err) === 'ESRCH') return false;
    }
    const now = procStat(h.pid);
    if (!now) return true;
    if (now.state === 'Z' || now.state === 'X') return false;
    return h.startTicks === undefined || now.startTicks === h.startTicks;
  }
  return heartbeatSeen(path, staleAfterMs);
}

/**
 * A holder whose pid means nothing here (another host, or another container's pid namespace, such
 * as the same container restarted) refreshes the lock's mtime every HEARTBEAT_MS: watch for that
 * for up to `staleAfterMs`. Only a change counts, not the age, because the hosts' clocks may
 * differ; a lock silent for far longer than any clock difference is stale at once.
 */
function heartbeatSeen(path: string, staleAfterMs: number): boolean {
  const first = mtimeMs(path);
  if (first === undefined || Date.now() - first > CLOCK_SLACK_MS + staleAfterMs) return false;
  const end = Date.now() + staleAfterMs;
  while (Date.now() < end) {
    sleepSync(200);
    const m = mtimeMs(path);
    if (m === undefined) return false;
    if (m !== first) return true;
  }
  return false;
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Takes `path` for `me`; otherwise returns the live holder. */
function claim(path: string, me: LockHolder, depth: number, staleAfterMs: number): LockHolder | undefined {
  const content = JSON.stringify(me);
  for (let attempt = 0; attempt < 50; attempt++) {
    if (createExclusive(path, content)) return undefined;
    const raw = readOr(path);
    if (raw === undefined) continue; // released meanwhile
    const holder = parse(raw);
    if (holder === undefined && Date.now() - (mtimeMs(path) ?? 0) < UNREADABLE_GRACE_MS) {
      sleepSync(100);
      continue;
    }
    if (holder !== undefined && alive(path, holder, me, staleAfterMs)) return holder;
    if (depth >= MAX_DEPTH) throw new Error(`cannot break the stale lock ${path}: remove ${path}* by hand`);
    // Stale. Named after this lock instance: a newer lock gets another name, so it is never broken.
    const id = holder?.nonce ?? `raw-${Buffer.from(raw).toString('hex').slice(0, 24)}`;
    const breaker = `${path}.${id}.break`;
    const breakerHolder = claim(breaker, me, depth + 1, staleAfterMs);
    if (breakerHolder !== undefined) {
      sleepSync(50); // another process is breaking it right now
      continue;
    }
    try {
      if (readOr(path) === raw) unlinkSync(path);
    } finally {
      removeQuietly(breaker);
    }
  }
  throw new Error(`could not take ${path}: it kept changing hands`);
}

/** What a holder does when another process has taken its lock over: say so in one line, and stop. */
function exitOnLost(dir: string): void {
  console.error(`Stopping: another process took over the lock of the data folder ${dir}; two processes must never write one database.`);
  process.exit(75);
}

/**
 * Takes DATA_DIR's lock for this process (creating the folder if needed), or throws
 * DataDirLockedError naming the live holder. Released by `release()` and, failing that, when the
 * process exits; a process killed outright leaves a stale lock that the next start takes over.
 */
export function lockDataDir(dir: string, opts: { staleAfterMs?: number; onLost?: (dir: string) => void } = {}): DataDirLock {
  mkdirSync(dir, { recursive: true });
  const real = realpathSync(dir);
  const path = join(real, LOCK_FILE);
  const me = describeMe();
  if (heldHere.has(path)) throw new DataDirLockedError(real, me);
  const holder = claim(path, me, 0, opts.staleAfterMs ?? STALE_AFTER_MS);
  if (holder) throw new DataDirLockedError(real, holder);
  heldHere.add(path);

  // Holders elsewhere judge this lock by its mtime (see alive()). A lock that is no longer ours was
  // taken over by a process that judged us dead (our event loop stalled past the stale bound, say):
  // two processes must never write one database, so this one stops at once.
  const heartbeat = setInterval(() => {
    const raw = readOr(path);
    if (raw !== undefined && parse(raw)?.nonce !== me.nonce) {
      clearInterval(heartbeat);
      (opts.onLost ?? exitOnLost)(real);
      return;
    }
    try {
      const now = new Date();
      utimesSync(path, now, now);
    } catch {
      // gone: release() or a hand removal; nothing to refresh
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();

  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    clearInterval(heartbeat);
    process.off('exit', release);
    heldHere.delete(path);
    // Only our own: never a lock someone else holds now.
    if (parse(readOr(path) ?? '')?.nonce === me.nonce) removeQuietly(path);
  };
  // process.exit() anywhere (a failed start, the shutdown bound) still releases it.
  process.on('exit', release);
  return { path, holder: me, release };
}
