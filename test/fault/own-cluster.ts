import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * A PostgreSQL cluster of the test's own (initdb in a temporary folder, its own port), so a test
 * can stop and start the server without touching the one other tests use.
 */
export class OwnCluster {
  readonly dir: string;
  private readonly bin: string;

  constructor(readonly port: number) {
    const versions = existsSync("/usr/lib/postgresql") ? readdirSync("/usr/lib/postgresql").sort() : [];
    const version = versions.at(-1);
    if (!version) throw new Error("PostgreSQL server binaries not found under /usr/lib/postgresql");
    this.bin = `/usr/lib/postgresql/${version}/bin`;
    this.dir = mkdtempSync(path.join(os.tmpdir(), "contracts-fault-pg-"));
    chmodSync(this.dir, 0o777);
  }

  get url() {
    return `postgresql://postgres@127.0.0.1:${this.port}/postgres`;
  }

  /** initdb refuses to run as root: run the server's tools as the `postgres` user then. */
  private run(tool: string, args: string[]) {
    const cmd = path.join(this.bin, tool);
    const asRoot = process.getuid?.() === 0;
    const r = asRoot
      ? spawnSync("runuser", ["-u", "postgres", "--", cmd, ...args], { encoding: "utf8" })
      : spawnSync(cmd, args, { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`${tool} failed: ${r.stderr || r.stdout}`);
    return r.stdout;
  }

  init() {
    this.run("initdb", ["-D", path.join(this.dir, "data"), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  }

  start() {
    this.run("pg_ctl", [
      "-D", path.join(this.dir, "data"), "-l", path.join(this.dir, "log"), "-w", "-t", "30",
      "-o", `-p ${this.port} -c listen_addresses=127.0.0.1 -k ${this.dir} -c fsync=off`, "start",
    ]);
  }

  /** `immediate` is a crash: in-flight transactions are cut off without a clean shutdown. */
  stop(mode: "fast" | "immediate" = "immediate") {
    this.run("pg_ctl", ["-D", path.join(this.dir, "data"), "-m", mode, "-w", "-t", "30", "stop"]);
  }

  destroy() {
    try {
      this.stop("immediate");
    } catch {
      // already stopped
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  static available(): boolean {
    try {
      execFileSync("sh", ["-c", "ls /usr/lib/postgresql/*/bin/initdb"], { stdio: "ignore" });
      return true;
    } catch {
      return false;
    }
  }
}
