use std::fmt;

/// An email address in a basic valid shape, trimmed and lower-cased.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Email(String);

impl Email {
    /// `local@domain.tld`: one `@`, no spaces, a dot in the domain, sane lengths.
    pub fn parse(raw: &str) -> Option<Email> {
        let s = raw.trim().to_lowercase();
        let (local, domain) = s.split_once('@')?;
        let ok = !local.is_empty()
            && local.len() <= 64
            && s.len() <= 254
            && !domain.contains('@')
            && domain.contains('.')
            && !domain.starts_with('.')
            && !domain.ends_with('.')
            && !domain.contains("..")
            && !s
                .chars()
                .any(|c| c.is_whitespace() || c.is_control() || c == '<' || c == '>' || c == ',');
        ok.then_some(Email(s))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Email {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::Email;

    #[test]
    fn accepts_ordinary_addresses_and_normalises_case() {
        assert_eq!(
            Email::parse(" Mona.Adel@Example.COM ").unwrap().as_str(),
            "mona.adel@example.com"
        );
        assert!(Email::parse("a+tag@sub.example.eg").is_some());
    }

    #[test]
    fn refuses_what_is_not_an_address() {
        for bad in [
            "",
            "plain",
            "a@b",
            "a@@b.com",
            "a b@c.com",
            "@c.com",
            "a@.com",
            "a@c.",
            "a@c..com",
            "<a@b.com>",
        ] {
            assert!(Email::parse(bad).is_none(), "{bad}");
        }
    }
}
