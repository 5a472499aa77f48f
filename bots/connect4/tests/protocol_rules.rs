//! Unit rules of the codec: Java split/trim/parseInt, reply matching, registration,
//! datagram decoding and message round trips.

use kibitz_bots_connect4::protocol::*;

#[test]
fn java_split_semantics() {
    assert_eq!(java_split(""), vec![""]);
    assert_eq!(java_split(";"), Vec::<&str>::new());
    assert_eq!(java_split(";;"), Vec::<&str>::new());
    assert_eq!(java_split("REGISTER;"), vec!["REGISTER"]);
    assert_eq!(java_split("REGISTER;;"), vec!["REGISTER"]);
    assert_eq!(java_split(";a"), vec!["", "a"]);
    assert_eq!(java_split("a;;b;"), vec!["a", "", "b"]);
    assert_eq!(
        java_split("INSERT;3;abcdef01;"),
        vec!["INSERT", "3", "abcdef01"]
    );
}

#[test]
fn reply_matching_follows_the_original() {
    let t = "e7ff1de0";
    assert_eq!(
        match_reply("INSERT;0;e7ff1de0", t).as_deref(),
        Some("INSERT;0")
    );
    assert_eq!(match_reply("INSERT;0;e7ff1de0\n", t), None);
    assert_eq!(
        match_reply("INSERT;3;e7ff1de0;", t).as_deref(),
        Some("INSERT;3")
    );
    assert_eq!(
        match_reply("INSERT;3;x;e7ff1de0", t).as_deref(),
        Some("INSERT;3;x")
    );
    assert_eq!(match_reply("e7ff1de0", t).as_deref(), Some(""));
    assert_eq!(match_reply("INSERT;0;e7ff1de1", t), None);
    assert_eq!(read_insert("INSERT;3;x"), Ok(3));
    assert_eq!(read_insert("INSERT;+3"), Ok(3));
    assert_eq!(read_insert("INSERT;-1"), Ok(-1));
    assert_eq!(
        read_insert("INSERT;x"),
        Err(LoseReason::NotANumber("x".into()))
    );
    assert_eq!(
        read_insert("INSERT;"),
        Err(LoseReason::NotANumber(String::new()))
    );
    assert_eq!(
        read_insert("INSERT;;3"),
        Err(LoseReason::NotANumber(String::new()))
    );
    assert_eq!(
        read_insert("INSERT"),
        Err(LoseReason::UnexpectedResponse("INSERT".into()))
    );
    assert_eq!(
        read_insert("JOIN"),
        Err(LoseReason::UnexpectedResponse("JOIN".into()))
    );
    assert_eq!(
        read_insert("INSERT;99999999999"),
        Err(LoseReason::NotANumber("99999999999".into()))
    );
    assert!(is_join("JOIN") && !is_join("JOIN;") && !is_join("join"));
}

#[test]
fn java_int_and_trim() {
    assert_eq!(parse_java_int("2147483647"), Some(i32::MAX));
    assert_eq!(parse_java_int("-2147483648"), Some(i32::MIN));
    assert_eq!(parse_java_int("2147483648"), None);
    assert_eq!(parse_java_int("+"), None);
    assert_eq!(parse_java_int("-"), None);
    assert_eq!(parse_java_int(" 1"), None);
    assert_eq!(parse_java_int("+-1"), None);
    assert_eq!(java_trim("\t a b \n"), "a b");
    assert_eq!(java_trim("\u{a0}x\u{a0}"), "\u{a0}x\u{a0}");
}

#[test]
fn registration_rules() {
    use Registration::*;
    assert_eq!(read_register("HELLO"), None);
    assert_eq!(read_register("REGISTER"), None);
    assert_eq!(
        read_register("REGISTER;"),
        Some(Refused(ServerMsg::NoNameGiven))
    );
    assert_eq!(
        read_register("REGISTER;;"),
        Some(Refused(ServerMsg::NoNameGiven))
    );
    assert_eq!(read_register("REGISTER; "), Some(Name(String::new())));
    assert_eq!(read_register("REGISTER;a;b"), Some(Name("a".into())));
    assert_eq!(read_register("REGISTER;  bob \t"), Some(Name("bob".into())));
    let x30 = "x".repeat(30);
    assert_eq!(
        read_register(&format!("REGISTER;{x30}")),
        Some(Name(x30.clone()))
    );
    assert_eq!(
        read_register(&format!("REGISTER;{x30}x")),
        Some(Refused(ServerMsg::NameTooLong))
    );
    // 15 emoji are 30 UTF-16 units, 16 are 32 (but only 16 chars).
    let e15 = "😀".repeat(15);
    assert_eq!(
        read_register(&format!("REGISTER;{e15}")),
        Some(Name(e15.clone()))
    );
    assert_eq!(
        read_register(&format!("REGISTER;{e15}😀")),
        Some(Refused(ServerMsg::NameTooLong))
    );
}

#[test]
fn datagrams_are_cut_and_decoded_lossily() {
    let mut bytes = vec![b'a'; MAX_DATAGRAM + 10];
    assert_eq!(decode_datagram(&bytes).len(), MAX_DATAGRAM);
    bytes[MAX_DATAGRAM - 1] = 0xc3; // first byte of a 2-byte sequence, cut
    assert!(decode_datagram(&bytes).ends_with('\u{fffd}'));
    assert_eq!(decode_datagram(&[0xff, b'x']), "\u{fffd}x");
}

#[test]
fn lose_reasons_round_trip() {
    for s in [
        "COLUMN_IS_FULL",
        "ILLEGAL_COLUMN_ANNOUNCED",
        "Timeout while waiting for response for UUID e7ff1de0",
        "Unexpected response JOIN;x",
        "For input string: \"a\"b\"",
        "For input string: \"",
        "something else; with a semicolon",
    ] {
        assert_eq!(LoseReason::parse(s).to_string(), s);
    }
    assert_eq!(
        LoseReason::parse("For input string: \"3x\""),
        LoseReason::NotANumber("3x".into())
    );
}

#[test]
fn messages_round_trip() {
    for s in [
        "WELCOME;alice",
        "NEW SEASON;d5e39974",
        "NEW GAME;bob",
        "YOURTURN;5ad09095",
        "TOKEN INSERTED;bob;7",
        "TOKEN INSERTED;bob;-1",
        "RESULT;WIN;bob;CONNECTED_LINE",
        "RESULT;LOSE;carol;COLUMN_IS_FULL",
        "RESULT;LOSE;x;Unexpected response A;B",
        "RESULT;DRAW;;",
        "UNREGISTERED",
        "NO_NAME_GIVEN",
    ] {
        assert_eq!(ServerMsg::parse(s).unwrap().encode(), s);
    }
    assert!(ServerMsg::parse("").is_err());
    assert!(ServerMsg::parse("TOKEN INSERTED;bob;x").is_err());
    assert!(ServerMsg::parse("YOURTURN").is_err());
    assert_eq!(
        ServerMsg::parse("RESULT;LOSE;x;Unexpected response A;B").unwrap(),
        ServerMsg::Result(GameResult::Lose {
            loser: "x".into(),
            reason: LoseReason::UnexpectedResponse("A;B".into())
        })
    );
    let m = ClientMsg::Insert {
        column: 3,
        token: "0e7b4118".into(),
    };
    assert_eq!(m.encode(), "INSERT;3;0e7b4118");
    assert_eq!(ClientMsg::parse("INSERT;3;0e7b4118"), Ok(m));
    assert!(ClientMsg::parse("INSERT;0;e7ff1de0\n").is_err());
    assert!(ClientMsg::parse("JOIN;e7ff1de0;").is_err());
    assert!(is_token(&new_token()));
}
