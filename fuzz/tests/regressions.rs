//! Inputs the fuzzer found, kept as tests. Findings in other engineers' files are `#[ignore]`d
//! here with the exact failing input (see fuzz/README.md); un-ignore once fixed.

use kibitz_bots_koehandel::protocol::Envelope;

/// Finding F2 (bots/koehandel/src/protocol/money.rs, `Money::parse` / `Display`), fixed: an
/// empty `money=` decoded to `Money::Real` without letters, whose encoding was `money=0`, which
/// decodes to `Money::Hidden { count: 0 }`, so `decode(encode(x)) != x`. An empty real field is
/// now written back empty.
#[test]
fn koehandel_empty_money_round_trips() {
    for q in [
        "market=1&id=1&type=information&money=",
        "market=1&id=1&type=information&money=-",
        "market=9&id=3&type=trade&opponent=W&goods=D&money",
    ] {
        let e = Envelope::parse(q).expect("accepted");
        assert_eq!(Envelope::parse(&e.to_query()).as_ref(), Ok(&e), "{q}");
    }
}

/// Finding F3 (bots/piranhas/src/protocol/framer.rs), fixed: a UTF-8 byte-order mark before
/// `<protocol>` is accepted when it arrives in one read but rejected as garbage when TCP splits
/// it (the BOM check looks at bytes that have not arrived yet), so framing depends on how the
/// stream is split. Found by `fuzz/run.sh` (piranhas-xml, split feed 1/7/3/64/2 bytes).
#[test]
fn piranhas_framer_accepts_a_split_bom() {
    use kibitz_bots_piranhas::protocol::{Frame, Framer};
    let stream = "\u{feff}<protocol><joined roomId=\"r\"/>".as_bytes();
    let frames = |chunk: usize| {
        let mut f = Framer::new(1 << 16);
        let mut out = Vec::new();
        for part in stream.chunks(chunk) {
            f.push(part);
            while let Some(fr) = f.next_frame().map_err(|e| format!("{e}"))? {
                out.push(fr);
            }
        }
        Ok::<_, String>(out)
    };
    let whole = frames(stream.len());
    assert_eq!(
        whole,
        Ok(vec![
            Frame::Open,
            Frame::Message("<joined roomId=\"r\"/>".into())
        ])
    );
    for chunk in [1, 2] {
        assert_eq!(frames(chunk), whole, "BOM split into {chunk}-byte reads");
    }
}
