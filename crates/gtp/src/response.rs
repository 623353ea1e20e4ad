//! Responses: `=id result` or `?id message`, ended by an empty line.

/// A response to one command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Response {
    /// `=`: the command succeeded; the text may span lines but has no empty line.
    Success(String),
    /// `?`: the command failed, with a message.
    Failure(String),
}

impl Response {
    /// A success with `text`.
    pub fn success(text: impl Into<String>) -> Response {
        Response::Success(text.into())
    }

    /// A failure with `message`.
    pub fn failure(message: impl Into<String>) -> Response {
        Response::Failure(message.into())
    }

    /// The response as sent: `=[id] text\n\n`. Empty lines inside the text would end the
    /// response early, so they are dropped.
    pub fn format(&self, id: Option<u32>) -> String {
        let (mark, text) = match self {
            Response::Success(t) => ('=', t),
            Response::Failure(t) => ('?', t),
        };
        let body: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let id = id.map(|i| i.to_string()).unwrap_or_default();
        if body.is_empty() {
            format!("{mark}{id}\n\n")
        } else {
            format!("{mark}{id} {}\n\n", body.join("\n"))
        }
    }
}

/// A response a controller cannot read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResponseError {
    /// Neither `=` nor `?` at the start.
    #[error("a GTP response starts with '=' or '?', not {0:?}")]
    BadStart(String),
    /// The id differs from the command's.
    #[error("response id {got:?} does not match command id {want:?}")]
    WrongId {
        /// Expected.
        want: Option<u32>,
        /// Received.
        got: Option<u32>,
    },
}

/// Parses the lines of one response (without the final empty line), as a controller reads them.
pub fn parse(lines: &[String]) -> Result<(Option<u32>, Response), ResponseError> {
    let first = lines.first().map(String::as_str).unwrap_or("");
    let (mark, rest) = match first.chars().next() {
        Some(m @ ('=' | '?')) => (m, &first[1..]),
        _ => return Err(ResponseError::BadStart(first.chars().take(40).collect())),
    };
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    let id = digits.parse().ok();
    let mut text = rest[digits.len()..].trim().to_string();
    for l in &lines[1..] {
        text.push('\n');
        text.push_str(l);
    }
    let r = if mark == '=' {
        Response::Success(text)
    } else {
        Response::Failure(text)
    };
    Ok((id, r))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_and_parse() {
        assert_eq!(Response::success("D4").format(Some(3)), "=3 D4\n\n");
        assert_eq!(Response::success("a\n\nb").format(None), "= a\nb\n\n");
        let (id, r) = parse(&["=3 D4".into()]).unwrap();
        assert_eq!((id, r), (Some(3), Response::success("D4")));
        let (id, r) = parse(&["? illegal move".into()]).unwrap();
        assert_eq!((id, r), (None, Response::failure("illegal move")));
        let (_, r) = parse(&["= A".into(), "B".into()]).unwrap();
        assert_eq!(r, Response::success("A\nB"));
        assert!(parse(&["hello".into()]).is_err());
    }
}
