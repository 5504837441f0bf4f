import GRDB
import ServiceKit

/// Household's records are ServiceKit's ``ServiceTable``s that never change on write; the name stays so the
/// records' conformances read as before.
typealias HouseholdTable = ServiceTable & PersistableRecord
