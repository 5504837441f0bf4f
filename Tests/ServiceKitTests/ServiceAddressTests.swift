import Configuration
import PlatformKit
import ServiceKit
import Synchronization
import Testing

/// Another service's address: from its `<SERVICE>_URL` or the local default, or bound late by a stack.
@Suite struct ServiceAddressTests {
    @Test func aLateAddressIsReadOnEachCall() {
        // given an address bound before the service it names listens
        let port = Mutex(1)
        let address = ServiceAddress.late { "http://127.0.0.1:\(port.withLock { $0 })" }
        #expect(address.url == "http://127.0.0.1:1")
        // when the service starts
        port.withLock { $0 = 8082 }
        // then the address says where it listens
        #expect(address.url == "http://127.0.0.1:8082")
    }

    @Test func theEnvironmentNamesAnAddressElseTheLocalDefaultStands() {
        let reader = ConfigReader(
            provider: EnvironmentVariablesProvider(environmentVariables: ["SOCIAL_URL": "http://social:8082"]))
        #expect(reader.address(of: .social).url == "http://social:8082")
        #expect(reader.address(of: .messaging).url == "http://127.0.0.1:8083")
        #expect(reader.optionalAddress(of: .notifications) == nil)
    }
}
