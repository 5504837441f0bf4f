import Testing

@testable import GeoService

/// The share of the world: countries over ISO 3166-1's 249 codes, continents over seven.
@Suite struct WorldShareTests {
    @Test func theListIsISO3166WithEveryContinent() {
        #expect(WorldShare.countryTotal == 249)
        #expect(Set(WorldShare.continents.values) == Set(WorldShare.Continent.allCases))
        #expect(WorldShare.continents.keys.allSatisfy { $0.count == 2 && $0.allSatisfy(\.isUppercase) })
        #expect(WorldShare.continents["RU"] == .europe && WorldShare.continents["TR"] == .asia)
        #expect(WorldShare.continents["XK"] == nil)
    }

    @Test func countriesCountOnceAndUnknownCodesNotAtAll() {
        let share = WorldShare.share(of: ["FR", "JP", "FR", "DE", "XK", "ZZ"])
        #expect(share.countries == ["DE", "FR", "JP"])
        #expect(share.continents == [.asia, .europe])
        #expect(share.percent == 1.2)
        #expect(WorldShare.share(of: [String]()).percent == 0)
        #expect(WorldShare.share(of: ["XK"]) == WorldShare.Share(countries: [], continents: [.europe], percent: 0))
        #expect(WorldShare.share(of: WorldShare.continents.keys).percent == 100)
    }
}
