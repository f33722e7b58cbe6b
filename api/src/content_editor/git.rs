//! The `git` command line on the working copy. The CLI rather than a crate: the repository is
//! pushed over SSH (a deploy key) or HTTPS (a token) exactly as a developer's git does it, with
//! the system's SSH and credentials handling, and no second implementation of git's object
//! store (libgit2 or gitoxide) is compiled into the API. The key and token reach git through
//! its environment (`GIT_SSH_COMMAND`, `GIT_CONFIG_*`), never its command line, and git's
//! messages are scrubbed of them before they are kept or logged.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use anyhow::{Context, bail};
use base64::Engine;

use crate::configuration::ContentRepoConfig;

/// Who a commit is by: the admin who saved.
pub struct Author<'a> {
    pub name: &'a str,
    pub email: &'a str,
}

#[derive(Clone)]
pub struct Git {
    repo: PathBuf,
    config: ContentRepoConfig,
}

/// Local commands (add, commit) and network ones (push, fetch) get different time limits.
const LOCAL: Duration = Duration::from_secs(30);
const NETWORK: Duration = Duration::from_secs(60);

impl Git {
    pub fn new(config: &ContentRepoConfig) -> Git {
        Git {
            repo: config.repo.clone(),
            config: config.clone(),
        }
    }

    /// git's text with the remote's address and the token replaced.
    pub fn scrub(&self, text: &str) -> String {
        let mut out = text.to_string();
        if let Some(remote) = &self.config.remote {
            out = out.replace(remote.expose(), "<remote>");
        }
        if let Some(token) = &self.config.token {
            out = out.replace(token.expose(), "****");
        }
        out
    }

    async fn run(
        &self,
        args: &[&str],
        envs: &[(&str, String)],
        limit: Duration,
    ) -> anyhow::Result<String> {
        let mut cmd = tokio::process::Command::new("git");
        cmd.arg("-C")
            .arg(&self.repo)
            .args([
                "-c",
                "commit.gpgsign=false",
                "-c",
                "core.hooksPath=/dev/null",
            ])
            .args(args)
            .env("GIT_TERMINAL_PROMPT", "0")
            .env("LC_ALL", "C")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        if let Some(key) = &self.config.ssh_key {
            cmd.env(
                "GIT_SSH_COMMAND",
                format!(
                    "ssh -i '{}' -o IdentitiesOnly=yes -o StrictHostKeyChecking=accept-new -o BatchMode=yes",
                    key.display()
                ),
            );
        }
        if let Some(token) = &self.config.token {
            let basic = base64::engine::general_purpose::STANDARD
                .encode(format!("x-access-token:{}", token.expose()));
            cmd.env("GIT_CONFIG_COUNT", "1")
                .env("GIT_CONFIG_KEY_0", "http.extraHeader")
                .env(
                    "GIT_CONFIG_VALUE_0",
                    format!("Authorization: Basic {basic}"),
                );
        }
        for (k, v) in envs {
            cmd.env(k, v);
        }
        let output = tokio::time::timeout(limit, cmd.output())
            .await
            .with_context(|| format!("git {} took longer than {}s", args[0], limit.as_secs()))?
            .context("cannot run git")?;
        if !output.status.success() {
            let stderr = String::from_utf8_lossy(&output.stderr);
            bail!("git {} failed: {}", args[0], self.scrub(stderr.trim()));
        }
        Ok(String::from_utf8_lossy(&output.stdout).trim().to_string())
    }

    /// Makes sure the working copy exists: cloned from the remote when the folder is missing,
    /// `origin` pointed at the configured remote otherwise.
    pub async fn prepare(&self) -> anyhow::Result<()> {
        if !self.repo.join(".git").exists() {
            let Some(remote) = &self.config.remote else {
                bail!(
                    "CONTENT_REPO {} is not a git working copy (and no CONTENT_REMOTE to clone)",
                    self.repo.display()
                );
            };
            let parent = self.repo.parent().unwrap_or(Path::new("."));
            std::fs::create_dir_all(parent)?;
            let clone = Git {
                repo: parent.to_path_buf(),
                config: self.config.clone(),
            };
            let target = self.repo.display().to_string();
            clone
                .run(
                    &[
                        "clone",
                        "-q",
                        "--branch",
                        &self.config.branch,
                        remote.expose(),
                        &target,
                    ],
                    &[],
                    NETWORK,
                )
                .await?;
            return Ok(());
        }
        if let Some(remote) = &self.config.remote {
            if self
                .run(&["remote", "get-url", "origin"], &[], LOCAL)
                .await
                .is_err()
            {
                self.run(&["remote", "add", "origin", remote.expose()], &[], LOCAL)
                    .await?;
            } else {
                self.run(
                    &["remote", "set-url", "origin", remote.expose()],
                    &[],
                    LOCAL,
                )
                .await?;
            }
        }
        Ok(())
    }

    /// Stages `paths` (written or deleted) and commits them alone, by `author`. Returns the
    /// commit's id.
    pub async fn commit(
        &self,
        paths: &[String],
        message: &str,
        author: &Author<'_>,
    ) -> anyhow::Result<String> {
        let clean = |s: &str| -> String {
            s.chars()
                .filter(|c| !matches!(c, '<' | '>' | '\n' | '\r' | '\0'))
                .collect::<String>()
                .trim()
                .to_string()
        };
        let (name, email) = (clean(author.name), clean(author.email));
        let envs = [
            ("GIT_AUTHOR_NAME", name.clone()),
            ("GIT_AUTHOR_EMAIL", email.clone()),
            ("GIT_COMMITTER_NAME", name),
            ("GIT_COMMITTER_EMAIL", email),
        ];
        let mut add = vec!["add", "-A", "--"];
        add.extend(paths.iter().map(String::as_str));
        self.run(&add, &[], LOCAL).await?;
        let mut commit = vec!["commit", "-q", "--no-verify", "-m", message, "--"];
        commit.extend(paths.iter().map(String::as_str));
        self.run(&commit, &envs, LOCAL).await?;
        self.run(&["rev-parse", "HEAD"], &[], LOCAL).await
    }

    /// Pushes the branch to `origin`. When the remote moved on (someone pushed), the local
    /// commits are rebased on it first; a rebase that conflicts is undone and fails.
    pub async fn push(&self) -> anyhow::Result<()> {
        let refspec = format!("HEAD:refs/heads/{}", self.config.branch);
        if self
            .run(&["push", "-q", "origin", &refspec], &[], NETWORK)
            .await
            .is_ok()
        {
            return Ok(());
        }
        self.run(
            &["fetch", "-q", "origin", &self.config.branch],
            &[],
            NETWORK,
        )
        .await?;
        if let Err(e) = self.run(&["rebase", "-q", "FETCH_HEAD"], &[], LOCAL).await {
            let _ = self.run(&["rebase", "--abort"], &[], LOCAL).await;
            return Err(e);
        }
        self.run(&["push", "-q", "origin", &refspec], &[], NETWORK)
            .await
            .map(|_| ())
    }
}
