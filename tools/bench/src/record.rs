//! Parsing the ROMs' `bench key=value ...` log lines, and JSON output.

/// One `bench` line: its fields in order of appearance.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Record {
    fields: Vec<(String, String)>,
}

impl Record {
    /// Parses `bench k=v k=v ...`; `None` for other lines.
    pub fn parse(line: &str) -> Option<Record> {
        let rest = line.strip_prefix("bench ")?;
        let mut fields = Vec::new();
        for pair in rest.split_whitespace() {
            let (k, v) = pair.split_once('=')?;
            fields.push((k.to_string(), v.to_string()));
        }
        Some(Record { fields })
    }

    /// A field's text.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// A field as a number (`None` if absent or not a number, e.g. `none`).
    pub fn num(&self, key: &str) -> Option<u64> {
        self.get(key)?.parse().ok()
    }

    /// True if every `(key, value)` matches.
    pub fn is(&self, pairs: &[(&str, &str)]) -> bool {
        pairs.iter().all(|(k, v)| self.get(k) == Some(v))
    }
}

/// Milliseconds for a cycle count at the GBA's 16,777,216 Hz.
pub fn ms(cycles: u64) -> f64 {
    cycles as f64 * 1000.0 / 16_777_216.0
}

/// A value of a JSON line.
#[derive(Debug, Clone)]
pub enum Json {
    Str(String),
    Int(u64),
    Float(f64),
    Null,
}

impl From<Json> for serde_json::Value {
    fn from(v: Json) -> Self {
        match v {
            Json::Str(s) => s.into(),
            Json::Int(i) => i.into(),
            // Four decimals: the figures are ratios and milliseconds; more
            // digits would only make the files noisier.
            Json::Float(f) => {
                serde_json::Number::from_f64((f * 1e4).round() / 1e4).map_or(serde_json::Value::Null, Into::into)
            }
            Json::Null => serde_json::Value::Null,
        }
    }
}

/// One JSON object per line (`serde_json`), keys in the given order.
pub fn json_line(fields: &[(&str, Json)]) -> String {
    let map: serde_json::Map<String, serde_json::Value> =
        fields.iter().map(|(k, v)| (k.to_string(), v.clone().into())).collect();
    serde_json::Value::Object(map).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_bench_lines() {
        let r = Record::parse("bench impl=ours name=rebuild window=64 cycles=1234").unwrap();
        assert_eq!(r.get("impl"), Some("ours"));
        assert_eq!(r.num("cycles"), Some(1234));
        assert!(r.is(&[("name", "rebuild"), ("window", "64")]));
        assert!(Record::parse("bench terrain: start").is_none());
        assert!(Record::parse("hello").is_none());
        assert_eq!(Record::parse("bench a=none").unwrap().num("a"), None);
    }

    #[test]
    fn writes_json() {
        let line = json_line(&[("a", Json::Str("x\"y".into())), ("b", Json::Int(3)), ("c", Json::Null)]);
        assert_eq!(line, r#"{"a":"x\"y","b":3,"c":null}"#);
        assert!((ms(16_777_216) - 1000.0).abs() < 1e-9);
    }
}
