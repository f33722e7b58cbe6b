//! The channel's latest uploads from the YouTube Data API v3 (docs/integrations.md §3):
//! `channels` once for the uploads playlist, then `playlistItems` and `videos`, 3 quota units
//! a refresh. Answers are cached on disk for 15 minutes so repeated builds cost nothing.
//! Any failure is a warning: the build goes on with the curated videos.

use std::path::{Path, PathBuf};
use std::time::Duration;

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::content::model::Video;

pub const DEFAULT_API_BASE: &str = "https://www.googleapis.com/youtube/v3";
const CACHE_TTL_SECONDS: i64 = 15 * 60;

pub struct Client {
    pub api_base: String,
    pub api_key: String,
    pub channel_id: String,
    pub cache_file: PathBuf,
}

#[derive(Serialize, Deserialize)]
struct Cache {
    channel_id: String,
    fetched_at: DateTime<Utc>,
    uploads_playlist: String,
    videos: Vec<CachedVideo>,
}

/// [`Video`] denies unknown fields for editors; the cache has its own plain copy.
#[derive(Serialize, Deserialize, Clone)]
struct CachedVideo {
    youtube_id: String,
    title: String,
    description: String,
    tags: Vec<String>,
    duration: Option<String>,
    published_at: NaiveDate,
    thumbnail: Option<String>,
}

impl From<CachedVideo> for Video {
    fn from(c: CachedVideo) -> Video {
        Video {
            youtube_id: c.youtube_id,
            title: c.title,
            description: c.description,
            category: None,
            tags: c.tags,
            duration: c.duration,
            published_at: c.published_at,
            thumbnail: c.thumbnail,
        }
    }
}

impl Client {
    /// Configured from `YOUTUBE_API_KEY` (and optionally `YOUTUBE_API_BASE`, for tests) and the
    /// channel in settings; `None` when there is no key or channel.
    pub fn from_env(channel_id: Option<&str>, root: &Path) -> Option<Client> {
        let api_key = std::env::var("YOUTUBE_API_KEY")
            .ok()
            .filter(|k| !k.is_empty())?;
        let channel_id = channel_id
            .map(str::to_string)
            .or_else(|| std::env::var("YOUTUBE_CHANNEL_ID").ok())
            .filter(|c| !c.is_empty())?;
        Some(Client {
            api_base: std::env::var("YOUTUBE_API_BASE").unwrap_or_else(|_| DEFAULT_API_BASE.into()),
            api_key,
            channel_id,
            cache_file: root.join(".cache/youtube.json"),
        })
    }

    /// The latest public uploads, from the cache when it is younger than 15 minutes.
    pub fn latest(&self, now: DateTime<Utc>) -> Result<Vec<Video>, String> {
        let cached: Option<Cache> = std::fs::read(&self.cache_file)
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .filter(|c: &Cache| c.channel_id == self.channel_id);
        if let Some(c) = &cached
            && (now - c.fetched_at).num_seconds() < CACHE_TTL_SECONDS
        {
            return Ok(c.videos.iter().cloned().map(Video::from).collect());
        }
        let http = reqwest::blocking::Client::builder()
            .timeout(Duration::from_secs(10))
            .connect_timeout(Duration::from_secs(5))
            .build()
            .map_err(|e| e.to_string())?;
        let uploads = match cached {
            Some(c) => c.uploads_playlist,
            None => self.uploads_playlist(&http)?,
        };
        let videos = self.fetch_uploads(&http, &uploads)?;
        let cache = Cache {
            channel_id: self.channel_id.clone(),
            fetched_at: now,
            uploads_playlist: uploads,
            videos: videos.clone(),
        };
        if let Some(dir) = self.cache_file.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = std::fs::write(
            &self.cache_file,
            serde_json::to_vec_pretty(&cache).unwrap_or_default(),
        );
        Ok(videos.into_iter().map(Video::from).collect())
    }

    fn get(
        &self,
        http: &reqwest::blocking::Client,
        resource: &str,
        query: &[(&str, &str)],
    ) -> Result<Value, String> {
        let url = format!("{}/{resource}", self.api_base.trim_end_matches('/'));
        let response = http
            .get(&url)
            .query(query)
            .query(&[("key", self.api_key.as_str())])
            .send()
            .map_err(|e| format!("{resource}: {}", e.without_url()))?;
        let status = response.status();
        let body: Value = response
            .json()
            .map_err(|e| format!("{resource}: {}", e.without_url()))?;
        if !status.is_success() {
            let reason = body["error"]["message"]
                .as_str()
                .unwrap_or("no reason given");
            return Err(format!("{resource}: HTTP {status}: {reason}"));
        }
        Ok(body)
    }

    fn uploads_playlist(&self, http: &reqwest::blocking::Client) -> Result<String, String> {
        let body = self.get(
            http,
            "channels",
            &[("part", "contentDetails"), ("id", &self.channel_id)],
        )?;
        body["items"][0]["contentDetails"]["relatedPlaylists"]["uploads"]
            .as_str()
            .map(str::to_string)
            .ok_or_else(|| format!("channel {} was not found", self.channel_id))
    }

    fn fetch_uploads(
        &self,
        http: &reqwest::blocking::Client,
        playlist: &str,
    ) -> Result<Vec<CachedVideo>, String> {
        let items = self.get(
            http,
            "playlistItems",
            &[
                ("part", "snippet,contentDetails,status"),
                ("playlistId", playlist),
                ("maxResults", "12"),
            ],
        )?;
        let ids: Vec<&str> = items["items"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|i| i["status"]["privacyStatus"].as_str() == Some("public"))
            .filter_map(|i| i["contentDetails"]["videoId"].as_str())
            .collect();
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let joined = ids.join(",");
        let details = self.get(
            http,
            "videos",
            &[("part", "snippet,contentDetails"), ("id", &joined)],
        )?;
        let mut out = Vec::new();
        for v in details["items"].as_array().into_iter().flatten() {
            let snippet = &v["snippet"];
            if snippet["liveBroadcastContent"]
                .as_str()
                .is_some_and(|l| l != "none")
            {
                continue;
            }
            let (Some(id), Some(title)) = (v["id"].as_str(), snippet["title"].as_str()) else {
                continue;
            };
            let published_at = snippet["publishedAt"]
                .as_str()
                .and_then(|p| DateTime::parse_from_rfc3339(p).ok())
                .map(|d| d.date_naive())
                .unwrap_or_else(|| Utc::now().date_naive());
            let thumbs = &snippet["thumbnails"];
            let thumbnail = ["maxres", "standard", "high", "medium", "default"]
                .iter()
                .find_map(|k| thumbs[k]["url"].as_str())
                .map(str::to_string);
            out.push(CachedVideo {
                youtube_id: id.to_string(),
                title: title.to_string(),
                description: snippet["description"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
                tags: snippet["tags"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|t| t.as_str().map(str::to_string))
                    .collect(),
                duration: v["contentDetails"]["duration"]
                    .as_str()
                    .and_then(format_duration),
                published_at,
                thumbnail,
            });
        }
        // Keep the uploads playlist's order: newest first.
        out.sort_by_key(|v| ids.iter().position(|i| *i == v.youtube_id));
        Ok(out)
    }
}

/// ISO 8601 `PT1H2M3S` → `1:02:03`, `PT15M51S` → `15:51`; `P0D` (live) → none.
pub fn format_duration(iso: &str) -> Option<String> {
    let rest = iso.strip_prefix('P')?;
    let (days, time) = match rest.split_once('T') {
        Some((d, t)) => (d, t),
        None => (rest, ""),
    };
    let mut total: u64 = 0;
    if !days.is_empty() {
        total += days.strip_suffix('D')?.parse::<u64>().ok()? * 86_400;
    }
    let mut number = String::new();
    for c in time.chars() {
        match c {
            '0'..='9' => number.push(c),
            'H' | 'M' | 'S' => {
                let n: u64 = number.parse().ok()?;
                total += n * match c {
                    'H' => 3600,
                    'M' => 60,
                    _ => 1,
                };
                number.clear();
            }
            _ => return None,
        }
    }
    if total == 0 || !number.is_empty() {
        return None;
    }
    let (h, m, s) = (total / 3600, total % 3600 / 60, total % 60);
    Some(if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    })
}

#[cfg(test)]
mod tests {
    use super::format_duration;

    #[test]
    fn durations_read_like_a_player_shows_them() {
        assert_eq!(format_duration("PT15M51S").as_deref(), Some("15:51"));
        assert_eq!(format_duration("PT1H2M3S").as_deref(), Some("1:02:03"));
        assert_eq!(format_duration("PT45S").as_deref(), Some("0:45"));
        assert_eq!(format_duration("P1DT1S").as_deref(), Some("24:00:01"));
        assert_eq!(format_duration("P0D"), None);
        assert_eq!(format_duration("garbage"), None);
    }
}
