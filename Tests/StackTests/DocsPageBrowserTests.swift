import Foundation
import PlatformKit
import TestSupport
import Testing

/// `GET /docs` is the API reference app developers browse: Debian's chromium opens it, finds every operation of the
/// merged document under its product's tag, and runs "try it out" on `GET /health/ready`.
@Suite struct DocsPageBrowserTests {
    struct Visit: Decodable {
        var tags: [String]
        var operations: Int
        var status: String
        var console: [String]
        var screenshot: String
    }

    @Test func everyOperationIsListedAndTryItOutAnswers() async throws {
        guard HeadlessBrowser.isAvailable else { return }
        try await ProductStack.run { stack in
            // the page and its files come from the gateway, under a policy that allows only its own scripts
            let page = try await stack.gateway.get("/docs")
            #expect(page.status == 200)
            let policy = try #require(page.headers.first(name: "content-security-policy"))
            #expect(policy.contains("script-src 'self'") && !policy.contains("unsafe-eval"))
            #expect(!page.text.contains("http://") && !page.text.contains("https://"), "no CDN")
            for asset in ["/docs/swagger-ui-bundle.js", "/docs/swagger-ui.css", "/docs/init.js"] {
                #expect(try await stack.gateway.get(asset).status == 200, "\(asset)")
            }
            #expect(try await stack.gateway.get("/docs/other.js").status == 404)
            // what the merged document holds
            let document = try await stack.gateway.get("/openapi.json").object
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            let operations = paths.values.reduce(0) { $0 + $1.count }
            var tags = Set<String>()
            for operation in paths.values.flatMap(\.values) {
                for tag in (operation as? [String: Any])?["tags"] as? [String] ?? [] { tags.insert(tag) }
            }
            // when a developer opens the page
            // kept with the build's test output, for a person to look at
            let folder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
                .appendingPathComponent(".build/test-output")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let shot = folder.appendingPathComponent("docs-page.png")
            let input = try JSONSerialization.data(withJSONObject: [
                "url": "http://127.0.0.1:\(URL(string: stack.gateway.baseURL)!.port!)/docs", "screenshot": shot.path,
            ])
            let output = try await ExternalProcess.run(
                ["python3", "-c", Self.script, String(decoding: input, as: UTF8.self)])
            let visit = try JSONDecoder().decode(Visit.self, from: output)
            print("docs page screenshot: \(visit.screenshot)")
            // then every tag and every operation is there, and "try it out" on the readiness probe shows 200
            #expect(Set(visit.tags) == tags)
            #expect(visit.operations == operations)
            #expect(visit.status == "200")
            #expect(visit.console.filter { $0.contains("Content Security Policy") }.isEmpty, "\(visit.console)")
            #expect(FileManager.default.fileExists(atPath: visit.screenshot))
        }
    }

    static let script = #"""
        import json, sys
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support import expected_conditions as seen
        from selenium.webdriver.support.ui import WebDriverWait

        task = json.loads(sys.argv[1])
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                         "--window-size=1280,2000"]:
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        driver.set_page_load_timeout(30)
        try:
            driver.get(task["url"])
            wait = WebDriverWait(driver, 60)
            wait.until(seen.presence_of_element_located((By.CSS_SELECTOR, ".opblock")))
            tags = [element.get_attribute("data-tag") for element in driver.find_elements(By.CSS_SELECTOR, ".opblock-tag")]
            operations = len(driver.find_elements(By.CSS_SELECTOR, ".opblock"))
            block = driver.find_element(By.ID, "operations-platform-gatewayReady")
            driver.execute_script("arguments[0].scrollIntoView();", block)
            block.find_element(By.CSS_SELECTOR, ".opblock-summary-control").click()
            wait.until(lambda d: block.find_elements(By.CSS_SELECTOR, ".try-out__btn"))
            block.find_element(By.CSS_SELECTOR, ".try-out__btn").click()
            wait.until(lambda d: block.find_elements(By.CSS_SELECTOR, ".execute"))
            block.find_element(By.CSS_SELECTOR, ".execute").click()
            cell = wait.until(lambda d: block.find_element(By.CSS_SELECTOR, ".live-responses-table tr.response .response-col_status"))
            status = cell.text.strip().split()[0]
            driver.save_screenshot(task["screenshot"])
            print(json.dumps({
                "tags": [tag for tag in tags if tag], "operations": operations, "status": status,
                "screenshot": task["screenshot"],
                "console": [entry["message"] for entry in driver.get_log("browser")],
            }))
        finally:
            driver.quit()
        """#
}
