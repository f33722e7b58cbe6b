// `sqlx::migrate!` embeds api/migrations/ at compile time; without this a new migration file
// would not rebuild the crate (sqlx's documented recommendation).
fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
