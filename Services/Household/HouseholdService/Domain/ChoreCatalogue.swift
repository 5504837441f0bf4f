/// The chores every household starts with (OurHome's idea of points as effort, roughly minutes / 5).
enum ChoreCatalogue {
    static let predefined: [(name: String, points: Int)] = [
        ("Take out the trash", 2), ("Wash the dishes", 3), ("Clean the bathroom", 6), ("Clean the kitchen", 5),
        ("Vacuum the living room", 3), ("Mop the floors", 4), ("Do the laundry", 3), ("Water the plants", 1),
        ("Clean the fridge", 3), ("Buy communal supplies", 2),
    ]

    static func isPredefined(_ name: String) -> Bool {
        predefined.contains { $0.name.caseInsensitiveCompare(name) == .orderedSame }
    }
}
