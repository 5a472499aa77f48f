//! HTML and SVG text helpers: escaping everything that comes from a record, JSON safe to
//! embed in a `<script>` element, and the page frame every page shares.

pub use kibitz_net::html::escape as esc;

/// Percent-encodes a query-string or path component.
pub fn url_enc(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// JSON text that can sit inside `<script type="application/json">`: `<`, `>` and `&` are
/// written as `\u003c`, `\u003e`, `\u0026` (they only occur inside JSON strings, where the
/// escapes mean the same), so no record can close the element.
pub fn script_json(v: &serde_json::Value) -> String {
    v.to_string()
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

/// A whole page: `title` (escaped here), `body` (already HTML), `script` (inline, trusted).
pub fn page(title: &str, body: &str, script: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <link rel=\"icon\" href=\"data:,\">\
         <title>{}</title><style>{STYLE}</style></head>\n<body>\n{body}\n<script>{script}</script>\n</body></html>\n",
        esc(title)
    )
}

/// The one style sheet.
const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:1em;background:#fafafa;color:#222}\
a{color:#1558b0}table{border-collapse:collapse}td,th{padding:2px 8px;border-bottom:1px solid #ddd;text-align:left}\
.game{display:flex;gap:1.5em;align-items:flex-start}#board svg{display:block}\
#moves{max-height:80vh;overflow-y:auto;min-width:22em;font-size:14px;margin:0;padding-left:0;list-style:none}\
#moves li{cursor:pointer;padding:1px 4px}#moves li.cur{background:#ffe38a}\
.what{font-weight:600;margin:.4em 0}.think{font-family:monospace;font-size:13px;color:#444}\
form.filter{margin:.5em 0}form.filter input,form.filter select{margin-right:.8em}";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_script_breakers() {
        assert_eq!(esc("<b a=\"1\">&'"), "&lt;b a=&quot;1&quot;&gt;&amp;&#39;");
        let j = script_json(&serde_json::json!({"x": "</script><!--&"}));
        assert!(!j.contains('<') && !j.contains('&'), "{j}");
        let back: serde_json::Value = serde_json::from_str(&j).unwrap();
        assert_eq!(back["x"], "</script><!--&");
        assert_eq!(url_enc("a b/ä"), "a%20b%2F%C3%A4");
    }
}
