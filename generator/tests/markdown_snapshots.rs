//! Pins the HTML that Markdown content becomes: what editors write is what visitors see.

use generator::assets::AssetMap;
use generator::markdown::render;

fn assets() -> AssetMap {
    let mut map = AssetMap::default();
    map.add(
        "/static/images/team.svg",
        b"<svg xmlns='http://www.w3.org/2000/svg'/>".to_vec(),
    );
    map
}

#[test]
fn headings_get_unique_anchors() {
    let md = "## What's Included\n\nText.\n\n## What's Included\n\n### Step 1: Plan {#custom}\n";
    insta::assert_snapshot!(render(md, &assets()).html);
}

#[test]
fn tables_footnotes_and_strikethrough_render() {
    let md = "| Package | Sessions |\n|---|---:|\n| Starter | 1 |\n| Growth | 5 |\n\n\
              Coaching works.[^icf] ~~Cheap~~ Valuable.\n\n[^icf]: ICF research, 2024.\n";
    insta::assert_snapshot!(render(md, &assets()).html);
}

#[test]
fn static_images_and_links_point_at_fingerprinted_files() {
    let md = "![The team](/static/images/team.svg)\n\n[Download](/static/brochure.pdf) and \
              [external](https://example.com).\n";
    insta::assert_snapshot!(render(md, &assets()).html);
}

#[test]
fn raw_html_in_trusted_content_is_kept_and_text_is_escaped() {
    let md = "<aside class=\"note\">Trusted note</aside>\n\nFish & chips < 5 \"quotes\"\n";
    insta::assert_snapshot!(render(md, &assets()).html);
}

#[test]
fn plain_text_is_what_excerpts_are_cut_from() {
    let r = render(
        "# Title\n\nSome *emphasis* and `code`.\n\n- one\n- two\n",
        &assets(),
    );
    assert_eq!(r.lead, "Title Some emphasis and code. one two");
    assert_eq!(r.words, 7);
    let long = render(&"word ".repeat(1000), &assets());
    assert_eq!(long.lead.chars().count(), generator::markdown::LEAD_CHARS);
    assert_eq!(long.words, 1000);
}
