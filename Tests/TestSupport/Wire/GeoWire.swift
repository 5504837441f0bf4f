import Foundation

// Typed answers of the geo service (Services/Geo/GeoService/Controllers/GeoDTOs.swift, PackDTOs.swift and the
// controllers' own answer types), as the stack tests read them.

/// A pin as its owner and other viewers see it (`PinView`).
public struct WirePin: Decodable, Sendable {
    public var id: String
    /// Absent for a stranger's pin whose owner asked not to be named to strangers.
    public var userId: String?
    public var latitude: Double
    public var longitude: Double
    public var placeName: String
    public var placeId: Int64?
    public var countryCode: String?
    public var note: String?
    public var visitedOn: String?
    public var photoCount: Int
    /// `own`, `friend` or `other`, for this viewer.
    public var category: String
    public var color: String
    public var createdAt: Date
    public var updatedAt: Date
}

/// A viewer's pin colours (`ColorsController.ColorsView`).
public struct WirePinColors: Decodable, Sendable {
    public var own: String
    public var friend: String
    public var other: String
    /// Per-pin choices, by pin id.
    public var pins: [String: String]
}

/// An RFC 7946 point geometry (`{"type": "Point", "coordinates": [longitude, latitude]}`).
public struct WireGeoJSONPoint: Decodable, Sendable {
    public var type: String
    /// Longitude first.
    public var coordinates: [Double]
}

/// The map (`FeatureCollection`): RFC 7946 points, longitude first, with the clustering as foreign members.
public struct WireMap: Decodable, Sendable {
    public struct Properties: Decodable, Sendable {
        public var cluster: Bool
        public var pinId: String?
        public var userId: String?
        public var placeName: String?
        /// For a cluster, the most personal category it holds.
        public var category: String
        public var color: String
        public var pointCount: Int?
        public var ownCount: Int?
        public var friendCount: Int?
        public var otherCount: Int?
    }

    public struct Feature: Decodable, Sendable {
        public var type: String
        /// The pin's id, or `cluster-<zoom>-<x>-<y>`.
        public var id: String
        public var geometry: WireGeoJSONPoint
        public var properties: Properties
    }

    public var type: String
    public var features: [Feature]
    public var clustered: Bool
    public var zoom: Int
}

/// A photo of a pin (`PhotosController.PhotoView`).
public struct WirePinPhoto: Decodable, Sendable {
    public var id: String
    public var pinId: String
    public var mediaType: String
    public var byteCount: Int
    public var url: String
    public var createdAt: Date
}

/// A gazetteer place (`PlaceView`).
public struct WirePlace: Decodable, Sendable {
    public var id: Int64
    public var name: String
    public var countryCode: String
    public var latitude: Double
    public var longitude: Double
    public var population: Int
    /// The name the query matched, when it was an alternate one.
    public var matchedName: String?
}

/// Who pinned a place or an area (`PlacesController.VisitorsPage`).
public struct WireVisitors: Decodable, Sendable {
    public struct User: Decodable, Sendable {
        public var id: String
        public var username: String?
        public var displayName: String
        public var avatarUrl: String?
    }

    public struct Visitor: Decodable, Sendable {
        public var user: User
        public var friend: Bool
        public var pinCount: Int
        public var distance: Int
    }

    public var place: WirePlace?
    public var latitude: Double
    public var longitude: Double
    public var radius: Double
    public var friendCount: Int
    public var otherCount: Int
    /// Strangers who asked not to be named: counted, not listed.
    public var hiddenCount: Int
    public var items: [Visitor]
    public var nextCursor: String?
}

/// Whether I am listed to strangers (`PrivacyController.PrivacyView`).
public struct WireGeoPrivacy: Decodable, Sendable {
    public var listedToStrangers: Bool
}

/// A pack as a viewer sees it (`PackView`).
public struct WirePack: Decodable, Sendable, Identifiable {
    public var id: String
    public var name: String
    public var latitude: Double
    public var longitude: Double
    public var radiusMeters: Int
    public var tags: [String]
    public var color: String
    public var icon: String
    public var locked: Bool
    public var official: Bool
    public var memberCount: Int
    public var postCount: Int
    public var popularity: Double
    public var createdAt: Date
    /// `nil` for an official pack, which never expires.
    public var expiresAt: Date?
    /// Present when the request sent a `Geo-Position`.
    public var distanceMeters: Int?
    public var inside: Bool?
    public var contentVisible: Bool
    public var member: Bool
    public var isAlpha: Bool
    public var myPseudonym: String?
}

/// The face of the pack a post came from (`PackFace`).
public struct WirePackFace: Decodable, Sendable {
    public var id: String
    public var name: String
    public var color: String
    public var icon: String
}

/// A writer as readers see them (`AnonymousAuthor`): a per-pack pseudonym, never an identity.
public struct WirePackAuthor: Decodable, Sendable {
    public var name: String
    public var isMine: Bool
    /// On comments only: the comment's writer also wrote the post.
    public var isOriginalPoster: Bool?
}

/// A post in a pack (`PostView`).
public struct WirePackPost: Decodable, Sendable, Identifiable {
    public var id: String
    public var pack: WirePackFace
    public var title: String
    public var body: String
    public var tags: [String]
    public var author: WirePackAuthor
    public var score: Int
    public var upVotes: Int
    public var downVotes: Int
    /// 1, -1 or 0.
    public var myVote: Int
    public var commentCount: Int
    public var hidden: Bool
    public var createdAt: Date
}

/// A comment on a post (`CommentView`).
public struct WirePackComment: Decodable, Sendable, Identifiable {
    public var id: String
    public var postId: String
    public var body: String
    public var author: WirePackAuthor
    public var score: Int
    public var upVotes: Int
    public var downVotes: Int
    /// 1, -1 or 0.
    public var myVote: Int
    public var hidden: Bool
    public var createdAt: Date
}

/// My comment with the post it is on (`MyCommentView`); `post` is `nil` when I may not see it.
public struct WireMyPackComment: Decodable, Sendable {
    public var comment: WirePackComment
    public var post: WirePackPost?
}

/// The den (`DenView`): what I wrote, what it earned, where I belong.
public struct WireDen: Decodable, Sendable {
    public var postCount: Int
    public var commentCount: Int
    public var upVotesEarned: Int
    public var downVotesEarned: Int
    /// Votes earned up minus down, plus 2 per post written, across all packs.
    public var karma: Int
    public var packs: [WirePack]
}

/// My visited countries and cities (`VisitedSummaryView`).
public struct WireVisitedSummary: Decodable, Sendable {
    public struct Country: Decodable, Sendable, Equatable {
        public var countryCode: String
        public var cityCount: Int
        public var pinCount: Int
        public var firstVisit: String
        public var lastVisit: String
    }
    public struct City: Decodable, Sendable, Equatable {
        public var placeId: Int64?
        public var name: String
        public var countryCode: String?
        public var pinCount: Int
        public var firstVisit: String
        public var lastVisit: String
    }
    public struct Countries: Decodable, Sendable {
        public struct Feature: Decodable, Sendable {
            public struct Geometry: Decodable, Sendable {
                public var type: String
                public var coordinates: [[Double]]
            }
            public var type: String
            public var id: String
            public var geometry: Geometry
            public var properties: Country
        }
        public var type: String
        public var features: [Feature]
    }
    public var pinCount: Int
    public var countryCount: Int
    public var cityCount: Int
    public var countries: [Country]
    public var cities: [City]
    public var geojson: Countries
}

/// A pin's reactions (`PinReactionsView`): counts per kind, mine, and for its owner who reacted how.
public struct WirePinReactions: Decodable, Sendable {
    public struct Reactor: Decodable, Sendable {
        public var userId: String
        public var kind: String
    }

    public var counts: [String: Int]
    public var mine: String?
    public var reactors: [Reactor]?
}

/// My share of the world and my friends' (`WorldShareView`).
public struct WireWorldShare: Decodable, Sendable {
    public struct Share: Decodable, Sendable {
        public var countryCount: Int
        public var percent: Double
        public var countries: [String]
        public var continents: [String]
    }

    public struct Friend: Decodable, Sendable {
        public var userId: String
        public var share: Share
    }

    public var countryTotal: Int
    public var continentTotal: Int
    public var mine: Share
    public var friends: [Friend]
}
