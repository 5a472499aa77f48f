//! How big a hash table a flag may ask for. A table larger than the machine's memory used to
//! abort the process inside the allocator (SIGABRT); flags such as `--hash-mb` and `--hash`
//! check the request against the machine first and refuse it with a message instead.

/// The share of the machine's memory one table may take: three quarters, so the process, its
/// other tables and the system keep the rest.
pub const MAX_SHARE_NUM: u64 = 3;
/// Denominator of [`MAX_SHARE_NUM`].
pub const MAX_SHARE_DEN: u64 = 4;

/// The machine's total memory in MiB (`MemTotal` of `/proc/meminfo`), or `None` where it
/// cannot be read (not Linux): then only the address-space bound below applies.
pub fn machine_mb() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_meminfo_mb(&text)
}

fn parse_meminfo_mb(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// The largest table in MiB a flag may ask for on a machine of `machine_mb` MiB (or of unknown
/// size): 3/4 of the memory, never more than the address space can hold.
pub fn max_table_mb(machine_mb: Option<u64>) -> u64 {
    let address_space = (usize::MAX as u64 / 2) >> 20;
    machine_mb
        .map(|m| m * MAX_SHARE_NUM / MAX_SHARE_DEN)
        .unwrap_or(address_space)
        .min(address_space)
}

/// Checks a table size in MiB against `max` (see [`max_table_mb`]); the error says what was asked,
/// the bound, and why.
pub fn check_table_mb(mb: u64, max: u64) -> Result<usize, String> {
    if mb > max {
        return Err(format!(
            "{mb} MiB is more than this machine can give one table (at most {max} MiB, \
             3/4 of its memory)"
        ));
    }
    usize::try_from(mb).map_err(|_| format!("{mb} MiB does not fit this machine's address space"))
}

/// A clap `value_parser` for table sizes in MiB (`--hash-mb`, `--hash`): a number that fits
/// this machine's memory.
///
/// ```
/// assert_eq!(kibitz_net::memory::parse_table_mb("16"), Ok(16));
/// assert!(kibitz_net::memory::parse_table_mb("99999999999").is_err());
/// assert!(kibitz_net::memory::parse_table_mb("lots").is_err());
/// ```
pub fn parse_table_mb(s: &str) -> Result<usize, String> {
    let mb: u64 = s
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a whole number of MiB"))?;
    check_table_mb(mb, max_table_mb(machine_mb()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_memtotal() {
        let text = "MemTotal:       24576000 kB\nMemFree:        100 kB\n";
        assert_eq!(parse_meminfo_mb(text), Some(24_000));
        assert_eq!(parse_meminfo_mb("nothing here"), None);
    }

    #[test]
    fn bounds_by_three_quarters_of_the_machine() {
        assert_eq!(max_table_mb(Some(24_000)), 18_000);
        assert_eq!(check_table_mb(18_000, 18_000), Ok(18_000));
        let err = check_table_mb(98_000, 18_000).unwrap_err();
        assert!(err.contains("98000 MiB") && err.contains("18000"), "{err}");
    }

    #[test]
    fn this_machine_refuses_an_absurd_table() {
        assert!(parse_table_mb("99999999").is_err());
        assert!(parse_table_mb("1").is_ok());
    }
}
