//! Tests of `framer.rs`.

use super::*;

fn frames(input: &[u8], chunk: usize) -> Result<Vec<Frame>, ProtocolError> {
    let mut f = Framer::new(1 << 16);
    let mut out = Vec::new();
    for c in input.chunks(chunk.max(1)) {
        f.push(c);
        while let Some(fr) = f.next_frame()? {
            out.push(fr);
        }
    }
    Ok(out)
}

#[test]
fn splits_messages_in_any_chunking() {
    let s = b"<?xml version=\"1.0\"?><protocol>\n  <a x=\"1>2\"/><!-- c --><b><c>t<![CDATA[<x>]]></c></b>\n</protocol>";
    for chunk in [1, 2, 3, 7, 1000] {
        let got = frames(s, chunk).unwrap();
        assert_eq!(
            got,
            vec![
                Frame::Open,
                Frame::Message("<a x=\"1>2\"/>".into()),
                Frame::Message("<b><c>t<![CDATA[<x>]]></c></b>".into()),
                Frame::Close
            ],
            "chunk {chunk}"
        );
    }
}

#[test]
fn rejects_garbage_and_oversize() {
    assert!(matches!(
        frames(b"hello", 1),
        Err(ProtocolError::Garbage(_))
    ));
    assert!(matches!(
        frames(b"<foo>", 1),
        Err(ProtocolError::NotProtocol(_))
    ));
    assert!(matches!(
        frames(b"<protocol>x", 1),
        Err(ProtocolError::Garbage(_))
    ));
    let mut big = b"<protocol><a>".to_vec();
    big.extend(std::iter::repeat_n(b'z', 70_000));
    assert!(matches!(
        frames(&big, 4096),
        Err(ProtocolError::TooLarge(_))
    ));
    let mut bad = b"<protocol><a v=\"".to_vec();
    // A lead byte without its continuation: only the finished message shows it.
    bad.extend([0xc3, 0x28]);
    bad.extend(b"\"/>");
    assert!(matches!(frames(&bad, 3), Err(ProtocolError::Utf8)));
}

#[test]
fn pretty_stream_recovers_after_garbage_and_unclosed_elements() {
    let stream: &[u8] = b"<protocol>\n  <a/>\n  <b>garbage < here\n  <c n=\"1\"/>\n  <d>\n    <open>\n  </d>\n  <e/>\n  <f>\n    <g/>\n  </f>\n</protocol>";
    for chunk in [1, 3, 1000] {
        let (got, errors) = pretty_frames(stream, chunk);
        assert_eq!(errors.len(), 2, "chunk {chunk}: {got:?}");
        assert_eq!(
            got,
            vec![
                Frame::Open,
                Frame::Message("<a/>".into()),
                Frame::Message("<c n=\"1\"/>".into()),
                Frame::Message("<e/>".into()),
                Frame::Message("<f>\n    <g/>\n  </f>".into()),
                Frame::Close
            ],
            "chunk {chunk}"
        );
    }
}

/// A pretty stream fed in `chunk`-byte reads; every error is counted and recovered from.
fn pretty_frames(stream: &[u8], chunk: usize) -> (Vec<Frame>, Vec<ProtocolError>) {
    let mut f = Framer::new(1 << 16);
    f.set_pretty(true);
    let (mut got, mut errors) = (Vec::new(), Vec::new());
    for c in stream.chunks(chunk) {
        f.push(c);
        loop {
            match f.next_frame() {
                Ok(Some(fr)) => got.push(fr),
                Ok(None) => break,
                Err(e) => {
                    errors.push(e);
                    f.recover();
                }
            }
        }
    }
    (got, errors)
}

#[test]
fn a_stream_cut_mid_tag_and_continued_with_garbage_fails_at_once() {
    // Nothing after the garbage: the error must not wait for a `>` that never comes.
    for garbage in [
        &b"\x00\x01binary"[..],
        b"ss=\"x\" @@@ junk",
        b"\xff\xfe",
        b"\x1b[0m",
    ] {
        let mut stream =
            b"<protocol>\n  <joined roomId=\"r\"/>\n  <room roomId=\"r\">\n    <data cla".to_vec();
        stream.extend_from_slice(garbage);
        for chunk in [1, 5, 1000] {
            let (got, errors) = pretty_frames(&stream, chunk);
            assert_eq!(
                got,
                vec![Frame::Open, Frame::Message("<joined roomId=\"r\"/>".into())],
                "{garbage:?} chunk {chunk}"
            );
            assert_eq!(errors.len(), 1, "{garbage:?} chunk {chunk}: {errors:?}");
            assert!(
                matches!(errors[0], ProtocolError::Garbage(_)),
                "{garbage:?}: {errors:?}"
            );
        }
    }
    // Control characters inside an element's text or an attribute value, and a broken
    // end tag, are errors too.
    for bad in [
        &b"<protocol><a>t\x02</a>"[..],
        b"<protocol><a v=\"\x07\"/>",
        b"<protocol><a></a @>",
    ] {
        assert!(
            matches!(frames(bad, 1), Err(ProtocolError::Garbage(_))),
            "{bad:?}"
        );
    }
}

#[test]
fn a_message_cutting_into_a_broken_tag_is_not_lost() {
    // The memento was cut inside an attribute value (and inside a tag name); the next
    // message starts a new line: it is read, not skipped with the broken one.
    for cut in [&b"<field x=\"1\" y="[..], b"<fie"] {
        let mut stream = b"<protocol>\n  <room roomId=\"r\">\n    ".to_vec();
        stream.extend_from_slice(cut);
        stream.extend_from_slice(b"\n  <left roomId=\"r\"/>\n</protocol>");
        for chunk in [1, 3, 1000] {
            let (got, errors) = pretty_frames(&stream, chunk);
            assert_eq!(errors.len(), 1, "{cut:?} chunk {chunk}: {errors:?}");
            assert_eq!(
                got,
                vec![
                    Frame::Open,
                    Frame::Message("<left roomId=\"r\"/>".into()),
                    Frame::Close
                ],
                "{cut:?} chunk {chunk}"
            );
        }
    }
}
