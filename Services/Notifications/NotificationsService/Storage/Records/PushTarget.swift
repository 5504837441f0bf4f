/// A new notice for one recipient whose push preferences allowed it, with the devices to push to.
struct PushTarget: Sendable {
    var notification: NotificationRecord
    var devices: [DeviceRecord]
}
