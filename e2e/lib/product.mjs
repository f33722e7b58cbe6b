// Starts the whole product with the README's first command, `devserver`, on a port of its own:
// the site, and in the same process the API with the PayTabs and Calendly stand-ins and the
// demo accounts, on a fresh SQLite file, with mail going to a real SMTP server of this harness
// that keeps what it receives.
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { SMTPServer } from "smtp-server";
import { simpleParser } from "mailparser";

const root = resolve(import.meta.dirname, "../..");
// The binaries to test: target/debug by default; E2E_BIN_DIR (relative to where you run) for others.
const bin = process.env.E2E_BIN_DIR ? resolve(process.env.E2E_BIN_DIR) : join(root, "target/debug");

/** The demo admin `devserver` creates on a new database (devkit/src/local.rs). */
export const ADMIN = { email: "admin@coach.example.com", password: "demo-admin-2026", name: "Nadine Kamel" };
/** The demo client it creates beside the admin. */
export const DEMO_CLIENT = { email: "client@coach.example.com", password: "demo-client-2026", name: "Mona Adel" };

async function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once("error", fail);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

/** An SMTP server on localhost that parses and keeps every message, and refuses mail to the
 *  addresses a test names for now (`refuse`), as a busy mailbox does (451: try again later). */
async function startMail() {
  const messages = [];
  const waiters = [];
  const refused = new Set();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, done) {
      if (!refused.has(address.address.toLowerCase())) return done();
      const busy = new Error("Mailbox busy, try again later");
      busy.responseCode = 451;
      done(busy);
    },
    onData(stream, _session, done) {
      simpleParser(stream)
        .then((mail) => {
          messages.push(mail);
          for (const w of waiters.splice(0)) w();
          done();
        })
        .catch(done);
    },
  });
  const port = await freePort();
  await new Promise((ok) => server.listen(port, "127.0.0.1", ok));
  return {
    port,
    messages,
    /** Refuses (or, with `false`, takes again) mail to `address`. */
    refuse(address, on = true) {
      if (on) refused.add(address.toLowerCase());
      else refused.delete(address.toLowerCase());
    },
    /** The first message to `to` whose subject matches, waiting up to `ms` for it. */
    async waitFor(to, subject, ms = 20_000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const found = messages.find(
          (m) => m.to?.text.includes(to) && subject.test(m.subject ?? ""),
        );
        if (found) return found;
        if (Date.now() > deadline) {
          const seen = messages.map((m) => `${m.to?.text}: ${m.subject}`).join("; ");
          throw new Error(`no email to ${to} matching ${subject} (received: ${seen || "none"})`);
        }
        await new Promise((ok) => {
          waiters.push(ok);
          setTimeout(ok, 250);
        });
      }
    },
    close: () => new Promise((ok) => server.close(ok)),
  };
}

async function waitForHttp(url, child, name, ms = 120_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (child.spawnError) throw new Error(`${name} did not start: ${child.spawnError.message}`);
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((ok) => setTimeout(ok, 200));
  }
  throw new Error(`${name} did not answer at ${url} within ${ms} ms`);
}

function run(name, file, args, env, logs) {
  const child = spawn(join(bin, file), args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  const keep = (chunk) => {
    logs.push(`[${name}] ${chunk}`);
    if (logs.length > 400) logs.shift();
  };
  child.on("error", (e) => {
    child.spawnError = e;
  });
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  return child;
}

/**
 * A project folder of its own under `dir`: copies of content/, themes/ and netlify.toml that a
 * test may edit while the other files' devservers (watching the real project) see nothing; the
 * islands and the image cache are the project's own (links).
 */
function projectCopy(dir) {
  const copy = join(dir, "project");
  for (const part of ["content", "themes", "netlify.toml"]) cpSync(join(root, part), join(copy, part), { recursive: true });
  mkdirSync(join(root, ".cache"), { recursive: true });
  symlinkSync(join(root, "islands"), join(copy, "islands"));
  symlinkSync(join(root, ".cache"), join(copy, ".cache"));
  return copy;
}

/**
 * Starts the product; `env` adds variables (the editor's CONTENT_REPO, CONTENT_REMOTE…);
 * `ownProject` serves a copy of the project (its folder is the returned `root`) for a test that
 * edits content.
 */
export async function startProduct({ env: more = {}, ownProject = false } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "coaching-e2e-"));
  const project = ownProject ? projectCopy(dir) : root;
  const mail = await startMail();
  const port = await freePort();
  const site = `http://127.0.0.1:${port}`;
  // Only what differs from a developer's run: a throwaway database and a real SMTP server.
  const env = {
    ...process.env,
    DATABASE_URL: `sqlite://${dir}/app.db`,
    SMTP_HOST: "127.0.0.1",
    SMTP_PORT: String(mail.port),
    SMTP_TLS: "none",
    RUST_LOG: process.env.RUST_LOG ?? "warn",
    ...more,
  };
  const logs = [];
  // Its own output folder: test files run side by side, each site built for its own port.
  const args = ["--root", project, "--port", String(port), "--out", join(dir, "public")];
  const serve = run("devserver", "devserver", args, env, logs);
  await waitForHttp(`${site}/api/health`, serve, "devserver");
  return {
    site,
    root: project,
    mail,
    logs,
    async stop() {
      try {
        await stopServer();
      } finally {
        // Even when the server would not stop: an open mailbox keeps the test process alive.
        await mail.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };

  async function stopServer() {
    if (serve.exitCode !== null) return;
    serve.kill("SIGTERM"); // stops gracefully, as Ctrl+C does
    let timer;
    const exited = await new Promise((ok) => {
      serve.once("exit", () => ok(true));
      // Generous: a loaded CI machine (load 17 on 2 cores was seen) is slow to finish the
      // requests in flight; a server that never stops still fails.
      timer = setTimeout(() => ok(false), 30_000);
    });
    clearTimeout(timer); // or the test process would wait it out before exiting
    if (!exited) {
      serve.kill("SIGKILL");
      throw new Error(`devserver did not stop on SIGTERM within 30 s\n${logs.join("")}`);
    }
  }
}
