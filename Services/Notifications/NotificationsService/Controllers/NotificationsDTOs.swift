import Foundation
import Hummingbird
import PlatformKit

extension NotificationView: ResponseEncodable {}
