/// How a page of posts is merged from one index walk per pack (both stores do it): each walk reads only (id, hot)
/// in the page's order, and the page is the first `limit` of all of them.
struct PostMerge {
    typealias Key = (id: Int64, hot: Double)

    let order: PostOrder
    let limit: Int

    /// Whether `a` comes before `b`: newest first, or by hot then newest.
    func precedes(_ a: Key, _ b: Key) -> Bool {
        order == .new ? a.id > b.id : (a.hot, a.id) > (b.hot, b.id)
    }

    /// With more packs than the page holds, each pack's first post (`firsts`) comes first: the page's last post
    /// ranks no lower than the limit-th of those, so a pack whose first post ranks below it adds nothing and is not
    /// walked further.
    func candidates(_ firsts: [(pack: PackRecord, key: Key)]) -> [PackRecord] {
        let sorted = firsts.sorted { precedes($0.key, $1.key) }
        guard sorted.count > limit else { return sorted.map(\.pack) }
        let threshold = sorted[limit - 1].key
        return sorted.filter { !precedes(threshold, $0.key) }.map(\.pack)
    }

    /// The page's post ids, from the candidates' walks.
    func page(_ keys: [Key]) -> [Int64] {
        keys.sorted(by: precedes).prefix(limit).map(\.id)
    }
}
