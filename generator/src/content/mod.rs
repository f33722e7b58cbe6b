//! Loading `content/` into a [`Library`]: every file parsed and validated, every problem
//! collected. Nothing here renders or writes.
//!
//! The types are in `library`, which needs none of the other modules here; `load` reads the
//! files, `validate` checks them and `reload` re-reads single files: each uses only the
//! modules below it, never this one.

mod library;
mod load;
mod reload;
mod validate;
mod walk;

pub use content_model::{model, yaml};
pub use library::{Entry, LEGAL_PAGES, LegalDoc, Library, ListFile, TEXT_ROUTES};
pub use load::{file_name, original_path, translation_path};
pub use reload::EntryKind;
pub use walk::MAX_MARKDOWN_BYTES;
