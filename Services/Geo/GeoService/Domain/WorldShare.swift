/// The share of the world a traveller has seen: the countries of their pins over the 249 codes of ISO 3166-1
/// (every country and territory with a code of its own, so a pin anywhere has a place in the count, as Been counts
/// them), and the continents of those countries over seven.
///
/// The list and each code's continent are GeoNames' `countryInfo.txt` (CC BY 4.0, the gazetteer's source; see
/// `Gazetteer/NOTICE.md`): its 249 ISO 3166-1 codes, without its Kosovo (`XK`, a user-assigned code, not in the
/// standard: a pin there counts toward Europe but not toward the 249) and its withdrawn `CS` and `AN`. A
/// transcontinental country counts on the continent GeoNames gives it (Russia Europe, Turkey Asia, Egypt Africa).
enum WorldShare {
    enum Continent: String, CaseIterable, Codable, Sendable {
        case africa, antarctica, asia, europe, northAmerica, oceania, southAmerica
    }

    /// What one traveller has seen.
    struct Share: Sendable, Equatable {
        /// ISO 3166-1 codes of the countries visited, in order.
        var countries: [String]
        var continents: [Continent]
        /// Countries visited over ``WorldShare/countryTotal``, in per cent, one decimal.
        var percent: Double
    }

    /// The denominator: ISO 3166-1's 249 codes.
    static var countryTotal: Int { continents.count }

    /// The share of the world of the countries of someone's pins (codes outside the list are left out; `XK`
    /// counts toward Europe only).
    static func share(of countryCodes: some Sequence<String>) -> Share {
        var countries = Set<String>()
        var seen = Set<Continent>()
        for code in countryCodes {
            if let continent = continents[code] {
                countries.insert(code)
                seen.insert(continent)
            } else if code == "XK" {
                seen.insert(.europe)
            }
        }
        let percent = (Double(countries.count) * 1_000 / Double(countryTotal)).rounded() / 10
        return Share(
            countries: countries.sorted(), continents: Continent.allCases.filter(seen.contains), percent: percent)
    }

    /// Each ISO 3166-1 code's continent (GeoNames `countryInfo.txt`).
    static let continents: [String: Continent] = [
        // Africa
        "AO": .africa, "BF": .africa, "BI": .africa, "BJ": .africa, "BW": .africa, "CD": .africa, "CF": .africa,
        "CG": .africa, "CI": .africa, "CM": .africa, "CV": .africa, "DJ": .africa, "DZ": .africa, "EG": .africa,
        "EH": .africa, "ER": .africa, "ET": .africa, "GA": .africa, "GH": .africa, "GM": .africa, "GN": .africa,
        "GQ": .africa, "GW": .africa, "KE": .africa, "KM": .africa, "LR": .africa, "LS": .africa, "LY": .africa,
        "MA": .africa, "MG": .africa, "ML": .africa, "MR": .africa, "MU": .africa, "MW": .africa, "MZ": .africa,
        "NA": .africa, "NE": .africa, "NG": .africa, "RE": .africa, "RW": .africa, "SC": .africa, "SD": .africa,
        "SH": .africa, "SL": .africa, "SN": .africa, "SO": .africa, "SS": .africa, "ST": .africa, "SZ": .africa,
        "TD": .africa, "TG": .africa, "TN": .africa, "TZ": .africa, "UG": .africa, "YT": .africa, "ZA": .africa,
        "ZM": .africa, "ZW": .africa,
        // Antarctica
        "AQ": .antarctica, "BV": .antarctica, "GS": .antarctica, "HM": .antarctica, "TF": .antarctica,
        // Asia
        "AE": .asia, "AF": .asia, "AM": .asia, "AZ": .asia, "BD": .asia, "BH": .asia, "BN": .asia, "BT": .asia,
        "CC": .asia, "CN": .asia, "GE": .asia, "HK": .asia, "ID": .asia, "IL": .asia, "IN": .asia, "IO": .asia,
        "IQ": .asia, "IR": .asia, "JO": .asia, "JP": .asia, "KG": .asia, "KH": .asia, "KP": .asia, "KR": .asia,
        "KW": .asia, "KZ": .asia, "LA": .asia, "LB": .asia, "LK": .asia, "MM": .asia, "MN": .asia, "MO": .asia,
        "MV": .asia, "MY": .asia, "NP": .asia, "OM": .asia, "PH": .asia, "PK": .asia, "PS": .asia, "QA": .asia,
        "SA": .asia, "SG": .asia, "SY": .asia, "TH": .asia, "TJ": .asia, "TM": .asia, "TR": .asia, "TW": .asia,
        "UZ": .asia, "VN": .asia, "YE": .asia,
        // Europe
        "AD": .europe, "AL": .europe, "AT": .europe, "AX": .europe, "BA": .europe, "BE": .europe, "BG": .europe,
        "BY": .europe, "CH": .europe, "CY": .europe, "CZ": .europe, "DE": .europe, "DK": .europe, "EE": .europe,
        "ES": .europe, "FI": .europe, "FO": .europe, "FR": .europe, "GB": .europe, "GG": .europe, "GI": .europe,
        "GR": .europe, "HR": .europe, "HU": .europe, "IE": .europe, "IM": .europe, "IS": .europe, "IT": .europe,
        "JE": .europe, "LI": .europe, "LT": .europe, "LU": .europe, "LV": .europe, "MC": .europe, "MD": .europe,
        "ME": .europe, "MK": .europe, "MT": .europe, "NL": .europe, "NO": .europe, "PL": .europe, "PT": .europe,
        "RO": .europe, "RS": .europe, "RU": .europe, "SE": .europe, "SI": .europe, "SJ": .europe, "SK": .europe,
        "SM": .europe, "UA": .europe, "VA": .europe,
        // North America
        "AG": .northAmerica, "AI": .northAmerica, "AW": .northAmerica, "BB": .northAmerica, "BL": .northAmerica,
        "BM": .northAmerica, "BQ": .northAmerica, "BS": .northAmerica, "BZ": .northAmerica, "CA": .northAmerica,
        "CR": .northAmerica, "CU": .northAmerica, "CW": .northAmerica, "DM": .northAmerica, "DO": .northAmerica,
        "GD": .northAmerica, "GL": .northAmerica, "GP": .northAmerica, "GT": .northAmerica, "HN": .northAmerica,
        "HT": .northAmerica, "JM": .northAmerica, "KN": .northAmerica, "KY": .northAmerica, "LC": .northAmerica,
        "MF": .northAmerica, "MQ": .northAmerica, "MS": .northAmerica, "MX": .northAmerica, "NI": .northAmerica,
        "PA": .northAmerica, "PM": .northAmerica, "PR": .northAmerica, "SV": .northAmerica, "SX": .northAmerica,
        "TC": .northAmerica, "TT": .northAmerica, "US": .northAmerica, "VC": .northAmerica, "VG": .northAmerica,
        "VI": .northAmerica,
        // Oceania
        "AS": .oceania, "AU": .oceania, "CK": .oceania, "CX": .oceania, "FJ": .oceania, "FM": .oceania,
        "GU": .oceania, "KI": .oceania, "MH": .oceania, "MP": .oceania, "NC": .oceania, "NF": .oceania,
        "NR": .oceania, "NU": .oceania, "NZ": .oceania, "PF": .oceania, "PG": .oceania, "PN": .oceania,
        "PW": .oceania, "SB": .oceania, "TK": .oceania, "TL": .oceania, "TO": .oceania, "TV": .oceania,
        "UM": .oceania, "VU": .oceania, "WF": .oceania, "WS": .oceania,
        // South America
        "AR": .southAmerica, "BO": .southAmerica, "BR": .southAmerica, "CL": .southAmerica, "CO": .southAmerica,
        "EC": .southAmerica, "FK": .southAmerica, "GF": .southAmerica, "GY": .southAmerica, "PE": .southAmerica,
        "PY": .southAmerica, "SR": .southAmerica, "UY": .southAmerica, "VE": .southAmerica,
    ]
}
