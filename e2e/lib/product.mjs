// Starts the whole product the way a developer runs it, on ports of its own: a real SMTP server
// that keeps what it receives, the API on a fresh SQLite file with the PayTabs and Calendly
// stand-ins, and `site serve` in front of it forwarding /api/* like Netlify does.
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { SMTPServer } from "smtp-server";
import { simpleParser } from "mailparser";

const root = resolve(import.meta.dirname, "../..");
const bin = process.env.E2E_BIN_DIR ?? join(root, "target/debug");

export const ADMIN = { email: "admin@coach.example.com", password: "e2e-admin-2026", name: "Nadine Kamel" };

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

/** An SMTP server on localhost that parses and keeps every message. */
async function startMail() {
  const messages = [];
  const waiters = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
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
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  return child;
}

export async function startProduct() {
  const dir = mkdtempSync(join(tmpdir(), "coaching-e2e-"));
  const mail = await startMail();
  const apiPort = await freePort();
  const sitePort = await freePort();
  const site = `http://127.0.0.1:${sitePort}`;
  const api = `http://127.0.0.1:${apiPort}`;
  const env = {
    ...process.env,
    APP_ENV: "development",
    DATABASE_URL: `sqlite://${dir}/app.db`,
    PUBLIC_BASE_URL: site,
    COOKIE_SECURE: "false",
    SMTP_HOST: "127.0.0.1",
    SMTP_PORT: String(mail.port),
    SMTP_TLS: "none",
    MAIL_FROM: "Nadine Kamel Coaching <no-reply@coach.example.com>",
    PAYTABS_STANDIN: "true",
    PAYTABS_PROFILE_ID: "4242",
    PAYTABS_SERVER_KEY: "SE2ETEST-STANDINKEY-NOTASECRET",
    PAYTABS_BASE_URL: `${api}/paytabs-standin`,
    CALENDLY_STANDIN: "true",
    CALENDLY_SIGNING_KEYS: "e2e-calendly-signing-key",
    CALENDLY_TOKEN: "e2e-calendly-token",
    CALENDLY_API_BASE: `${api}/calendly-standin/api`,
    CALENDLY_SCHEDULING_URL: `${api}/calendly-standin/book`,
    APP_SECRET: "e2e-app-secret-e2e-app-secret-0123456789",
    RUST_LOG: process.env.RUST_LOG ?? "warn",
  };
  const logs = [];
  execFileSync(join(bin, "api"), ["migrate"], { cwd: root, env, stdio: "ignore" });
  execFileSync(
    join(bin, "api"),
    ["admin", "create", "--email", ADMIN.email, "--name", ADMIN.name],
    { cwd: root, env, input: `${ADMIN.password}\n`, stdio: ["pipe", "ignore", "inherit"] },
  );
  const apiProcess = run("api", "api", ["serve", "--port", String(apiPort)], env, logs);
  await waitForHttp(`${api}/api/health`, apiProcess, "the API");
  const siteProcess = run(
    "site",
    "site",
    ["serve", "--port", String(sitePort), "--api", `127.0.0.1:${apiPort}`],
    env,
    logs,
  );
  await waitForHttp(`${site}/`, siteProcess, "site serve");
  return {
    site,
    api,
    mail,
    logs,
    async stop() {
      for (const p of [siteProcess, apiProcess]) {
        if (p.exitCode === null) {
          p.kill("SIGTERM");
          await new Promise((ok) => {
            p.once("exit", ok);
            setTimeout(ok, 5000);
          });
        }
      }
      await mail.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
