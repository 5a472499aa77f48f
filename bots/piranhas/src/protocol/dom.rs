//! A tiny element tree: parse one framed message with quick-xml, write messages in the two
//! layouts seen on the wire (the server's pretty print, the clients' compact form).

use super::ProtocolError;
use quick_xml::events::Event;
use quick_xml::Reader;

/// One XML element with its attributes (in order), child elements and concatenated text.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Element {
    /// Element name as written (no namespace processing; the protocol uses none).
    pub name: String,
    /// Attributes in document order, values unescaped.
    pub attrs: Vec<(String, String)>,
    /// Child elements in document order.
    pub children: Vec<Element>,
    /// Text content directly inside this element (unescaped, untrimmed).
    pub text: String,
}

impl Element {
    /// A new element without attributes or children.
    pub fn new(name: &str) -> Self {
        Self {
            name: name.to_string(),
            ..Self::default()
        }
    }

    /// Builder: adds an attribute.
    pub fn attr(mut self, name: &str, value: impl Into<String>) -> Self {
        self.attrs.push((name.to_string(), value.into()));
        self
    }

    /// Builder: adds a child element.
    pub fn child(mut self, child: Element) -> Self {
        self.children.push(child);
        self
    }

    /// Builder: sets the text content.
    pub fn text(mut self, text: impl Into<String>) -> Self {
        self.text = text.into();
        self
    }

    /// The value of attribute `name`, if present.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The value of a required attribute, or a [`ProtocolError::Missing`].
    pub fn req(&self, name: &str) -> Result<&str, ProtocolError> {
        self.get(name).ok_or_else(|| ProtocolError::Missing {
            element: self.name.clone(),
            what: name.to_string(),
        })
    }

    /// The first child called `name`.
    pub fn find(&self, name: &str) -> Option<&Element> {
        self.children.iter().find(|c| c.name == name)
    }

    /// All children called `name`.
    pub fn find_all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Element> + 'a {
        self.children.iter().filter(move |c| c.name == name)
    }

    /// Parses exactly one element (as cut out by the framer), checking well-formedness.
    pub fn parse(xml: &str) -> Result<Element, ProtocolError> {
        let mut reader = Reader::from_str(xml);
        let cfg = reader.config_mut();
        cfg.check_end_names = true;
        cfg.trim_text(false);
        let mut stack: Vec<Element> = Vec::new();
        let mut done: Option<Element> = None;
        let syntax = |e: quick_xml::Error| ProtocolError::Syntax(e.to_string());
        loop {
            let ev = reader.read_event().map_err(syntax)?;
            match ev {
                Event::Start(ref s) | Event::Empty(ref s) if done.is_none() => {
                    let mut el = Element::new(&String::from_utf8_lossy(s.name().as_ref()));
                    for a in s.attributes() {
                        let a = a.map_err(|e| ProtocolError::Syntax(e.to_string()))?;
                        let key = String::from_utf8_lossy(a.key.as_ref()).into_owned();
                        let value = a.unescape_value().map_err(syntax)?.into_owned();
                        el.attrs.push((key, value));
                    }
                    if matches!(ev, Event::Start(_)) {
                        stack.push(el);
                    } else if let Some(parent) = stack.last_mut() {
                        parent.children.push(el);
                    } else {
                        done = Some(el);
                    }
                }
                Event::End(_) => {
                    let mut el = stack
                        .pop()
                        .ok_or_else(|| ProtocolError::Syntax("unbalanced end tag".into()))?;
                    // Indentation between child elements is layout, not content.
                    if !el.children.is_empty() && el.text.trim().is_empty() {
                        el.text.clear();
                    }
                    match stack.last_mut() {
                        Some(parent) => parent.children.push(el),
                        None => done = Some(el),
                    }
                }
                Event::Text(t) => {
                    let t = t.unescape().map_err(syntax)?;
                    match stack.last_mut() {
                        Some(cur) => cur.text.push_str(&t),
                        None if t.trim().is_empty() => {}
                        None => return Err(ProtocolError::Garbage(t.into_owned())),
                    }
                }
                Event::CData(c) => {
                    if let Some(cur) = stack.last_mut() {
                        cur.text.push_str(&String::from_utf8_lossy(&c));
                    }
                }
                Event::Eof => break,
                Event::Start(_) | Event::Empty(_) => {
                    return Err(ProtocolError::Syntax("more than one element".into()))
                }
                _ => {}
            }
        }
        if !stack.is_empty() {
            return Err(ProtocolError::Syntax("unclosed element".into()));
        }
        done.ok_or_else(|| ProtocolError::Syntax("no element".into()))
    }

    /// Writes this element the way the 2019 server does: preceded by a newline, indented by
    /// `indent` spaces, children two spaces deeper, `<a/>` for empty elements.
    pub fn write_pretty(&self, out: &mut String, indent: usize) {
        out.push('\n');
        out.extend(std::iter::repeat_n(' ', indent));
        self.open_tag(out, false);
        if self.children.is_empty() && self.text.is_empty() {
            out.push_str("/>");
            return;
        }
        out.push('>');
        if self.children.is_empty() {
            escape_into(out, &self.text, false);
        } else {
            for c in &self.children {
                c.write_pretty(out, indent + 2);
            }
            out.push('\n');
            out.extend(std::iter::repeat_n(' ', indent));
        }
        self.close_tag(out);
    }

    /// Writes this element on one line the way the official clients do (`<a x="1" />`).
    pub fn write_compact(&self, out: &mut String) {
        self.open_tag(out, true);
        if self.children.is_empty() && self.text.is_empty() {
            out.push_str(" />");
            return;
        }
        out.push('>');
        escape_into(out, &self.text, false);
        for c in &self.children {
            c.write_compact(out);
        }
        self.close_tag(out);
    }

    fn open_tag(&self, out: &mut String, _compact: bool) {
        out.push('<');
        out.push_str(&self.name);
        for (k, v) in &self.attrs {
            out.push(' ');
            out.push_str(k);
            out.push_str("=\"");
            escape_into(out, v, true);
            out.push('"');
        }
    }

    fn close_tag(&self, out: &mut String) {
        out.push_str("</");
        out.push_str(&self.name);
        out.push('>');
    }
}

/// XML-escapes `s` as the official server does (`&apos;`, `&#xa;` in attributes).
pub fn escape_into(out: &mut String, s: &str, attribute: bool) {
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if attribute => out.push_str("&quot;"),
            '\'' if attribute => out.push_str("&apos;"),
            '\n' if attribute => out.push_str("&#xa;"),
            '\r' => out.push_str("&#xd;"),
            '\t' if attribute => out.push_str("&#x9;"),
            // Characters XML 1.0 cannot carry at all are dropped rather than corrupting the stream.
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => {}
            '\u{FFFE}' | '\u{FFFF}' => {}
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_escapes() {
        let el = Element::new("data")
            .attr("message", "Ungueltiger Zug von 'Unknown'.\nx<y&\"z\"")
            .child(Element::new("part").text("2"));
        let mut s = String::new();
        el.write_pretty(&mut s, 2);
        assert_eq!(
            s,
            "\n  <data message=\"Ungueltiger Zug von &apos;Unknown&apos;.&#xa;x&lt;y&amp;&quot;z&quot;\">\n    <part>2</part>\n  </data>"
        );
        assert_eq!(Element::parse(s.trim()).unwrap(), el);
        let mut c = String::new();
        el.write_compact(&mut c);
        assert_eq!(Element::parse(&c).unwrap(), el);
        assert!(Element::parse("<a><b></a>").is_err());
        assert!(Element::parse("<a x=\"1\" x=\"2\"/>").is_err());
    }
}
