//! Escaping for the HTML and SVG pages the servers and the viewer write: text from a record,
//! a player's name or a URL must never become markup.

/// Escapes text for HTML or SVG element content and quoted attribute values (`&`, `<`, `>`,
/// `"`, `'`).
///
/// ```
/// assert_eq!(kibitz_net::html::escape("<a href='x'>&\"</a>"),
///            "&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;");
/// ```
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}
