//! Command lines.
//!
//! Preprocessing follows GTP 2, section 2.2: control characters other than tab and line feed are
//! removed, everything from a `#` on is a comment, tabs become spaces, and lines left empty are
//! ignored. A command is an optional numeric id, a name, and arguments separated by spaces.

/// A parsed command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    /// The id, echoed in the response.
    pub id: Option<u32>,
    /// The command name (case as sent; GTP names are lower case).
    pub name: String,
    /// The arguments.
    pub args: Vec<String>,
}

/// A line that is not a command.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// An id but no command name.
    #[error("missing command name")]
    MissingName,
    /// An id that does not fit or a name with characters GTP does not allow.
    #[error("syntax error")]
    Syntax,
}

/// Applies GTP preprocessing to one line.
pub fn preprocess(line: &str) -> String {
    let without_comment = match line.find('#') {
        Some(i) => &line[..i],
        None => line,
    };
    without_comment
        .chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() && c != '\n' => None,
            c => Some(c),
        })
        .collect::<String>()
        .trim()
        .to_string()
}

impl Command {
    /// Parses one line. `Ok(None)` for a line that is empty after preprocessing.
    pub fn parse(line: &str) -> Result<Option<Command>, CommandError> {
        let clean = preprocess(line);
        let mut words = clean.split(' ').filter(|w| !w.is_empty());
        let Some(first) = words.next() else {
            return Ok(None);
        };
        let (id, name) = if first.bytes().all(|b| b.is_ascii_digit()) {
            let id = first.parse::<u32>().map_err(|_| CommandError::Syntax)?;
            (Some(id), words.next().ok_or(CommandError::MissingName)?)
        } else {
            (None, first)
        };
        if !name.chars().all(|c| c.is_ascii_graphic()) {
            return Err(CommandError::Syntax);
        }
        Ok(Some(Command {
            id,
            name: name.to_string(),
            args: words.map(str::to_string).collect(),
        }))
    }

    /// The id a response should echo even when the line was malformed (GTP engines answer
    /// `? syntax error` with the id when they can read one).
    pub fn id_of(line: &str) -> Option<u32> {
        preprocess(line)
            .split(' ')
            .find(|w| !w.is_empty())
            .and_then(|w| w.parse().ok())
    }
}

impl std::fmt::Display for Command {
    /// The command as a line, without the newline.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(id) = self.id {
            write!(f, "{id} ")?;
        }
        f.write_str(&self.name)?;
        for a in &self.args {
            write!(f, " {a}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preprocessing() {
        assert_eq!(preprocess("play\tb d4 # move\r"), "play b d4");
        assert_eq!(preprocess("  # only a comment"), "");
        assert_eq!(preprocess("na\u{7}me"), "name");
    }

    #[test]
    fn ids_names_and_arguments() {
        let c = Command::parse("7 boardsize 9").unwrap().unwrap();
        assert_eq!(
            c,
            Command {
                id: Some(7),
                name: "boardsize".into(),
                args: vec!["9".into()]
            }
        );
        assert_eq!(c.to_string(), "7 boardsize 9");
        assert_eq!(Command::parse("").unwrap(), None);
        assert_eq!(Command::parse("12"), Err(CommandError::MissingName));
        assert_eq!(
            Command::parse("99999999999 name"),
            Err(CommandError::Syntax)
        );
        assert_eq!(Command::id_of("5 play x"), Some(5));
    }
}
