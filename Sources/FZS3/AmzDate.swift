/// UTC dates as SigV4 and S3 write them, without Foundation: `20130524T000000Z` (x-amz-date),
/// `2013-05-24T00:00:00Z` (credential expirations) and `Fri, 24 May 2013 00:00:00 GMT` (the
/// `date` header a server answers with, which tells how far off the local clock is).
public enum AmzDate {
    /// `yyyyMMdd'T'HHmmss'Z'` for `seconds` since 1970.
    public static func stamp(_ seconds: Int64) -> String {
        let (y, m, d, hh, mm, ss) = civil(seconds)
        return pad(y, 4) + pad(m, 2) + pad(d, 2) + "T" + pad(hh, 2) + pad(mm, 2) + pad(ss, 2) + "Z"
    }

    /// Seconds since 1970 of an ISO 8601 UTC time (`2026-12-02T07:00:00Z`, fractions and a
    /// `+00:00` offset allowed, as STS, ECS and IMDS write expirations), or of an x-amz-date.
    public static func parseISO8601(_ text: String) -> Int64? {
        let digits = text.utf8.filter { $0 >= 0x30 && $0 <= 0x39 }.map { Int64($0 - 0x30) }
        guard digits.count >= 14 else { return nil }
        func number(_ from: Int, _ count: Int) -> Int64 { digits[from..<(from + count)].reduce(0) { $0 * 10 + $1 } }
        return seconds(
            year: number(0, 4), month: number(4, 2), day: number(6, 2), hour: number(8, 2), minute: number(10, 2),
            second: number(12, 2))
    }

    /// Seconds since 1970 of an HTTP date (`Fri, 24 May 2013 00:00:00 GMT`, RFC 9110's IMF-fixdate).
    public static func parseHTTPDate(_ text: String) -> Int64? {
        let words = text.split(separator: " ")
        guard words.count == 6, let day = Int64(words[1]), let year = Int64(words[3]) else { return nil }
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard let month = months.firstIndex(of: String(words[2])) else { return nil }
        let time = words[4].split(separator: ":").compactMap { Int64($0) }
        guard time.count == 3 else { return nil }
        return seconds(
            year: year, month: Int64(month + 1), day: day, hour: time[0], minute: time[1], second: time[2])
    }

    /// Seconds since 1970 of a UTC civil time (Howard Hinnant's days_from_civil).
    static func seconds(year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64) -> Int64? {
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146097 + doe - 719468
        return days * 86400 + hour * 3600 + minute * 60 + second
    }

    /// Year, month, day, hour, minute, second of `seconds` since 1970 (civil_from_days).
    static func civil(_ seconds: Int64) -> (Int64, Int64, Int64, Int64, Int64, Int64) {
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let rest = seconds - days * 86400
        let z = days + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        return (y, m, d, rest / 3600, rest % 3600 / 60, rest % 60)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
