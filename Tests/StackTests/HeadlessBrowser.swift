import Foundation

/// A real headless browser (Debian's `chromium` driven by Selenium through `chromium-driver`, both installed by
/// `.ci/run`) that opens a page, optionally fills the password form and submits it, and reports what a person sees.
enum HeadlessBrowser {
    static let chromium = "/usr/bin/chromium"
    static let driver = "/usr/bin/chromedriver"

    /// Whether the browser tests can run here; when not, they are skipped and say so loudly.
    static var isAvailable: Bool {
        let available =
            FileManager.default.isExecutableFile(atPath: chromium)
            && FileManager.default.isExecutableFile(atPath: driver)
        if !available {
            print(
                "⚠️⚠️⚠️ BROWSER TESTS SKIPPED: \(chromium) or \(driver) is missing. "
                    + "Install Debian's chromium and chromium-driver (.ci/run does) to run them. ⚠️⚠️⚠️")
        }
        return available
    }

    /// What the browser showed: the first page, and the page after submitting (if a form was filled).
    struct Visit: Decodable {
        var heading: String
        var text: String
        var after: Page?
        /// Messages the browser logged (Content-Security-Policy violations would appear here).
        var console: [String]

        struct Page: Decodable {
            var heading: String
            var text: String
            var url: String
        }
    }

    /// Opens `url`; with `password`, types it into the form (and `confirm`, the same unless given) and submits; with
    /// `press` alone, presses the page's button.
    static func visit(_ url: String, password: String? = nil, confirm: String? = nil, press: Bool = false)
        async throws -> Visit
    {
        let input = try JSONSerialization.data(
            withJSONObject: [
                "url": url, "password": password ?? "", "confirm": confirm ?? password ?? "",
                "press": press || password != nil,
            ])
        let output = try await run(["python3", "-c", script, String(decoding: input, as: UTF8.self)])
        return try JSONDecoder().decode(Visit.self, from: output)
    }

    private static func run(_ arguments: [String]) async throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            process.terminationHandler = { _ in continuation.resume() }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        guard process.terminationStatus == 0 else {
            let message = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw BrowserFailed(description: "browser script failed: \(message.suffix(2000))")
        }
        return output
    }

    struct BrowserFailed: Error, CustomStringConvertible {
        var description: String
    }

    private static let script = #"""
        import json, sys
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support import expected_conditions
        from selenium.webdriver.support.ui import WebDriverWait

        task = json.loads(sys.argv[1])
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"]:
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        # Generous bounds, each ended as soon as the page is there: under the whole suite two cores are shared with
        # password hashing and other stacks, and a 10-second wait for the submitted form's answer once ran out.
        driver.set_page_load_timeout(60)
        try:
            driver.get(task["url"])
            result = {
                "heading": driver.find_element(By.TAG_NAME, "h1").text,
                "text": driver.find_element(By.TAG_NAME, "body").text,
            }
            if task["password"]:
                # As a person would: find the fields by their labels, type, press the button.
                new = driver.find_element(By.ID, driver.find_element(By.XPATH, "//label[contains(., 'New password')]").get_attribute("for"))
                new.send_keys(task["password"])
                again = driver.find_element(By.ID, driver.find_element(By.XPATH, "//label[contains(., 'again')]").get_attribute("for"))
                again.send_keys(task["confirm"])
            if task["press"]:
                page = driver.find_element(By.TAG_NAME, "html")
                driver.find_element(By.XPATH, "//button[@type='submit']").click()
                WebDriverWait(driver, 60).until(expected_conditions.staleness_of(page))
                result["after"] = {
                    "heading": driver.find_element(By.TAG_NAME, "h1").text,
                    "text": driver.find_element(By.TAG_NAME, "body").text,
                    "url": driver.current_url,
                }
            result["console"] = [entry["message"] for entry in driver.get_log("browser")]
            print(json.dumps(result))
        finally:
            driver.quit()
        """#
}
