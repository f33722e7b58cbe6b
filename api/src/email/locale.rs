//! How each language writes what an email says besides its sentences: days and session times,
//! money, counted sessions, time zones and payment methods. English is written exactly as it
//! always was (the snapshots hold it); Arabic follows Egyptian business writing: Western digits
//! (0-9), Arabic month and weekday names, the 12-hour clock with ص/م, and amounts in Egyptian
//! pounds as `20,250 ج.م` (any other currency keeps its ISO code: `20,250 USD`).

use chrono::{DateTime, Datelike, NaiveDate, Timelike, Utc, Weekday};
use chrono_tz::Tz;

use crate::domain::Language;

/// يناير … ديسمبر, as Egypt names the months.
const AR_MONTHS: [&str; 12] = [
    "يناير",
    "فبراير",
    "مارس",
    "أبريل",
    "مايو",
    "يونيو",
    "يوليو",
    "أغسطس",
    "سبتمبر",
    "أكتوبر",
    "نوفمبر",
    "ديسمبر",
];

fn ar_weekday(d: Weekday) -> &'static str {
    match d {
        Weekday::Sat => "السبت",
        Weekday::Sun => "الأحد",
        Weekday::Mon => "الاثنين",
        Weekday::Tue => "الثلاثاء",
        Weekday::Wed => "الأربعاء",
        Weekday::Thu => "الخميس",
        Weekday::Fri => "الجمعة",
    }
}

/// `3 ديسمبر 2026`.
fn ar_date(d: NaiveDate) -> String {
    format!(
        "{} {} {}",
        d.day(),
        AR_MONTHS[d.month0() as usize],
        d.year()
    )
}

/// `3:00 م`: 12-hour clock, ص before noon, م from noon.
fn ar_clock(hour: u32, minute: u32) -> String {
    let h12 = match hour % 12 {
        0 => 12,
        h => h,
    };
    let half = if hour < 12 { "ص" } else { "م" };
    format!("{h12}:{minute:02} {half}")
}

/// The title of a session that has no notes or event name (`bookings` names sessions with it;
/// [`session_title`] translates it).
pub const DEFAULT_TITLE: &str = "Coaching Session";

/// Money as an email writes it: `20,250 EGP` (English), `20,250 ج.م` (Arabic); decimals only
/// when there are piastres.
pub fn money(lang: Language, minor: i64, currency: &str) -> String {
    let amount = content_model::model::Money(minor).display();
    match lang {
        Language::Ar if currency.eq_ignore_ascii_case("EGP") => format!("{amount} ج.م"),
        _ => format!("{amount} {currency}"),
    }
}

/// A day as the emails name it: `Dec 17, 2026` (English, the spec's MMM dd, yyyy),
/// `17 ديسمبر 2026` (Arabic).
pub fn day(lang: Language, d: NaiveDate) -> String {
    match lang {
        Language::En => d.format("%b %d, %Y").to_string(),
        Language::Ar => ar_date(d),
    }
}

/// A stored day (`2026-12-17`) as [`day`] writes it; the text as it is if it is not one.
pub fn day_text(lang: Language, stored: &str) -> String {
    NaiveDate::parse_from_str(stored, "%Y-%m-%d")
        .map(|d| day(lang, d))
        .unwrap_or_else(|_| stored.to_string())
}

/// When a session starts, the zone named plainly, as the portal shows it:
/// `Thursday, December 3, 2026 at 3:00 PM (Cairo time)`,
/// `الخميس 3 ديسمبر 2026 الساعة 3:00 م (بتوقيت القاهرة)`.
pub fn session_time(lang: Language, start: DateTime<Utc>, tz: Tz) -> String {
    let local = start.with_timezone(&tz);
    match lang {
        Language::En => format!(
            "{} ({})",
            local.format("%A, %B %-d, %Y at %-I:%M %p"),
            zone_name(lang, tz)
        ),
        Language::Ar => format!(
            "{} {} الساعة {} ({})",
            ar_weekday(local.weekday()),
            ar_date(local.date_naive()),
            ar_clock(local.hour(), local.minute()),
            zone_name(lang, tz)
        ),
    }
}

/// A booking's time in the coach's note: `Dec 03, 2026 15:00`, `3 ديسمبر 2026، 15:00`.
pub fn short_time(lang: Language, start: DateTime<Utc>, tz: Tz) -> String {
    let local = start.with_timezone(&tz);
    match lang {
        Language::En => local.format("%b %d, %Y %H:%M").to_string(),
        Language::Ar => format!("{}، {}", ar_date(local.date_naive()), local.format("%H:%M")),
    }
}

/// A time zone as a person names it: `Cairo time`, `بتوقيت القاهرة`; UTC as `UTC` and
/// `بالتوقيت العالمي (UTC)` (English: the islands' `zoneName` says the same). A city Arabic has
/// no name for here keeps its English one.
pub fn zone_name(lang: Language, tz: Tz) -> String {
    let name = tz.name();
    let utc = matches!(
        name,
        "UTC" | "Etc/UTC" | "GMT" | "Etc/GMT" | "Universal" | "Zulu" | "Etc/Universal" | "Etc/Zulu"
    );
    let city = name.rsplit('/').next().unwrap_or(name);
    match (lang, utc) {
        (Language::En, true) => return "UTC".into(),
        (Language::En, false) => return format!("{} time", city.replace('_', " ")),
        (Language::Ar, true) => return "بالتوقيت العالمي (UTC)".into(),
        (Language::Ar, false) => {}
    }
    let arabic = match city {
        "Cairo" => "القاهرة",
        "Alexandria" => "الإسكندرية",
        "Riyadh" => "الرياض",
        "Dubai" => "دبي",
        "Kuwait" => "الكويت",
        "Qatar" => "الدوحة",
        "Bahrain" => "البحرين",
        "Muscat" => "مسقط",
        "Amman" => "عمّان",
        "Beirut" => "بيروت",
        "Baghdad" => "بغداد",
        "Damascus" => "دمشق",
        "Tripoli" => "طرابلس",
        "Tunis" => "تونس",
        "Algiers" => "الجزائر",
        "Casablanca" => "الدار البيضاء",
        "Khartoum" => "الخرطوم",
        "Jerusalem" | "Gaza" | "Hebron" => "القدس",
        "Istanbul" => "إسطنبول",
        "London" => "لندن",
        "Paris" => "باريس",
        "Berlin" => "برلين",
        "Amsterdam" => "أمستردام",
        "New_York" => "نيويورك",
        "Toronto" => "تورنتو",
        "Los_Angeles" => "لوس أنجلوس",
        other => return format!("بتوقيت {}", other.replace('_', " ")),
    };
    format!("بتوقيت {arabic}")
}

/// How many sessions, after a noun that takes the genitive (رصيد …): `جلسة واحدة`,
/// `جلستين`, `3 جلسات`, `11 جلسة`.
pub fn ar_sessions(n: i64) -> String {
    match n {
        1 => "جلسة واحدة".into(),
        2 => "جلستين".into(),
        _ if (3..=10).contains(&(n % 100)) => format!("{n} جلسات"),
        _ => format!("{n} جلسة"),
    }
}

/// How many sessions, standing alone (a receipt's row): `جلسة واحدة`, `جلستان`, `3 جلسات`.
pub fn ar_sessions_alone(n: i64) -> String {
    match n {
        2 => "جلستان".into(),
        _ => ar_sessions(n),
    }
}

/// A payment method as stored (`bank_transfer`, or how an online payment was made:
/// `meezaqr`, `valu`…), as a receipt names it.
pub fn payment_method(lang: Language, method: &str) -> String {
    let (english, arabic) = match method {
        "cash" => ("cash", "نقدًا"),
        "card" => ("card", "بطاقة"),
        "credit_card" => ("credit card", "بطاقة ائتمان"),
        "bank_transfer" => ("bank transfer", "تحويل بنكي"),
        "check" => ("check", "شيك"),
        "paypal" => ("PayPal", "PayPal"),
        "paytabs" => ("paytabs", "بطاقة (دفع إلكتروني)"),
        "other" => ("other", "أخرى"),
        "meeza" => ("Meeza", "بطاقة ميزة"),
        "meezaqr" => ("Meeza QR", "ميزة QR"),
        "applepay" => ("Apple Pay", "Apple Pay"),
        "valu" => ("valU instalments", "تقسيط valU"),
        "souhoola" => ("Souhoola instalments", "تقسيط سهولة"),
        "forsa" => ("Forsa instalments", "تقسيط فرصة"),
        "halan" => ("Halan instalments", "تقسيط حالًا"),
        "installment" => ("NBE instalments", "تقسيط البنك الأهلي المصري"),
        "aman" => ("Aman", "أمان"),
        "wallet" => ("mobile wallet", "محفظة إلكترونية"),
        "kiosk" => ("kiosk (cash)", "منفذ دفع (نقدًا)"),
        _ => return method.replace('_', " "),
    };
    match lang {
        Language::Ar => arabic.into(),
        _ => english.into(),
    }
}

/// The title of a session with no name of its own ([`DEFAULT_TITLE`]), in `lang`;
/// any other title (the event's name on the scheduler, the coach's notes) stays as written.
pub fn session_title(lang: Language, title: &str) -> &str {
    match lang {
        Language::Ar if title == DEFAULT_TITLE => "جلسة كوتشينج",
        _ => title,
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    #[test]
    fn arabic_writes_western_digits_with_arabic_names() {
        let start = Utc.with_ymd_and_hms(2026, 12, 3, 13, 0, 0).unwrap();
        let cairo = chrono_tz::Africa::Cairo;
        assert_eq!(
            session_time(Language::Ar, start, cairo),
            "الخميس 3 ديسمبر 2026 الساعة 3:00 م (بتوقيت القاهرة)"
        );
        assert_eq!(
            session_time(Language::En, start, cairo),
            "Thursday, December 3, 2026 at 3:00 PM (Cairo time)"
        );
        let morning = Utc.with_ymd_and_hms(2026, 6, 6, 22, 5, 0).unwrap();
        assert_eq!(
            session_time(Language::Ar, morning, cairo),
            "الأحد 7 يونيو 2026 الساعة 1:05 ص (بتوقيت القاهرة)"
        );
        assert_eq!(
            short_time(Language::Ar, start, cairo),
            "3 ديسمبر 2026، 15:00"
        );
        assert_eq!(short_time(Language::En, start, cairo), "Dec 03, 2026 15:00");
        assert_eq!(
            zone_name(Language::Ar, chrono_tz::UTC),
            "بالتوقيت العالمي (UTC)"
        );
        assert_eq!(
            zone_name(Language::Ar, chrono_tz::America::Sao_Paulo),
            "بتوقيت Sao Paulo"
        );
        let d = NaiveDate::from_ymd_opt(2026, 11, 2).unwrap();
        assert_eq!(day(Language::En, d), "Nov 02, 2026");
        assert_eq!(day(Language::Ar, d), "2 نوفمبر 2026");
    }

    #[test]
    fn money_and_counts() {
        assert_eq!(money(Language::Ar, 2_025_000, "EGP"), "20,250 ج.م");
        assert_eq!(money(Language::Ar, 450_050, "EGP"), "4,500.50 ج.م");
        assert_eq!(money(Language::Ar, 100, "USD"), "1 USD");
        assert_eq!(money(Language::En, 2_025_000, "EGP"), "20,250 EGP");
        let counted: Vec<String> = [1, 2, 3, 10, 11, 100, 103].map(ar_sessions).to_vec();
        assert_eq!(
            counted,
            [
                "جلسة واحدة",
                "جلستين",
                "3 جلسات",
                "10 جلسات",
                "11 جلسة",
                "100 جلسة",
                "103 جلسات"
            ]
        );
        assert_eq!(ar_sessions_alone(2), "جلستان");
        assert_eq!(payment_method(Language::Ar, "bank_transfer"), "تحويل بنكي");
        assert_eq!(
            payment_method(Language::En, "bank_transfer"),
            "bank transfer"
        );
        assert_eq!(payment_method(Language::Ar, "barter"), "barter");
        assert_eq!(payment_method(Language::En, "meezaqr"), "Meeza QR");
        assert_eq!(payment_method(Language::Ar, "valu"), "تقسيط valU");
    }
}
