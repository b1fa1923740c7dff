//! The training corpus: the engine's own games, kept whole in append-only shards under
//! `corpus/` with a manifest line each (`format` defines a shard, `filter` picks training
//! positions from games, `manifest` adds, verifies, counts and lists shards).

pub mod filter;
pub mod format;
pub mod manifest;

/// Today's date in UTC as `YYYY-MM-DD`.
pub fn utc_date_now() -> String {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    utc_date(seconds)
}

/// The civil date of a Unix time (days from 1970-01-01 by the proleptic Gregorian calendar).
fn utc_date(unix_seconds: u64) -> String {
    let days = (unix_seconds / 86_400) as i64 + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn unix_times_give_their_civil_dates() {
        assert_eq!(super::utc_date(0), "1970-01-01");
        assert_eq!(super::utc_date(951_782_400), "2000-02-29");
        assert_eq!(super::utc_date(1_795_650_000), "2026-11-25");
    }
}
