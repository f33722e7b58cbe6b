//! `devserver`: the whole product on localhost in one process. The site as Netlify serves it
//! ([`serve`]), kept in memory by the generator's `LiveSite` and re-rendered on each save
//! ([`livereload`] watches the sources and reloads open browsers), with `/api/*` answered by
//! the API's own router ([`portal`], with devkit's stand-ins, mailbox and demo accounts) or
//! forwarded to an API you run yourself ([`forward`]).
//!
//! It sits above the `generator` (the static-site generator alone, which is all Netlify
//! compiles) and the `api` and `devkit` crates, so neither the generator nor the `api` binary
//! carries any of this.

pub mod forward;
pub mod livereload;
pub mod portal;
pub mod serve;
