"""The pages in a real browser: Debian's headless Chromium, driven by selenium.

Each page loads without a console error, and every picture is visible, has a
size and holds elements. Screenshots go to the test's tmp directory. Without
``chromium`` and ``chromedriver`` these tests are skipped, except under
``CI=true``, where that fails the run (CI installs them: see ``.ci/run``).
"""

import os
import shutil

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.api.conftest import serve

PAGES = [
    ("home", "/"),
    ("search", "/search?q=maharaja"),
    ("W000001", "/W000001"),
    ("W000004", "/W000004"),
    ("W000016", "/W000016"),
    ("W000017", "/W000017"),
    ("identify", "/identify?data=0,0+1,2+2,1+3,5+5,3"),
]
FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1280,2600",
]


def _programs():
    browser, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if browser and driver:
        return browser, driver
    reason = (
        "chromium and chromedriver are not installed "
        "(apt-get install chromium chromium-driver)"
    )
    if os.environ.get("CI") == "true":
        pytest.fail(reason + " (required under CI=true)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    binary, driver_path = _programs()
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium')}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(driver_path))
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def base(app):
    url, stop = serve(app)
    yield url
    stop()


@pytest.mark.parametrize(("name", "path"), PAGES)
def test_page_in_chromium(browser, base, name, path, tmp_path):
    browser.get_log("browser")  # drop what earlier pages logged
    browser.get(base + path)
    assert browser.find_element(By.TAG_NAME, "h1").text
    # The stylesheet applied (served by the app, nothing from elsewhere).
    header = browser.find_element(By.CSS_SELECTOR, "header.site")
    assert header.value_of_css_property("background-color") == "rgba(36, 82, 122, 1)"
    pictures = browser.find_elements(By.CSS_SELECTOR, "svg.plot")
    if name.startswith("W"):
        assert len(pictures) >= 2
    for svg in pictures:
        assert svg.is_displayed()
        assert svg.size["width"] > 0 and svg.size["height"] > 0
        drawn = browser.execute_script(
            "const g = arguments[0]; const box = g.getBBox();"
            "return [g.childElementCount, box.width, box.height];",
            svg,
        )
        assert drawn[0] > 0 and drawn[1] > 0 and drawn[2] > 0, svg.get_attribute("id")
    shot = tmp_path / f"{name}.png"
    assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 0
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []


@pytest.fixture
def patient(app):
    """The module's catalog served with a minute a request: the answer
    checked here is an exact one, which a loaded machine must not cut."""
    from tests.api.conftest import make_app

    url = app.extensions["catalog"].settings.database_url
    slow = make_app(url, False, INLINE_SECONDS=60)
    base, stop = serve(slow)
    yield base
    stop()
    slow.extensions["catalog"].dispose()


def test_identify_form_in_chromium(browser, patient):
    """Paste misère Wythoff's P-positions, submit, read the answer and follow
    the altered game's link to its entry."""
    base = patient
    browser.get(base + "/identify")
    area = browser.find_element(By.ID, "id-data")
    area.send_keys("0,1 1,0 2,2 3,5 5,3 4,7 7,4")
    browser.find_element(By.ID, "id-n").send_keys("8")
    browser.find_element(By.ID, "id-submit").click()
    # The click does not wait for the answer's page: wait for it (a loaded
    # machine takes seconds), then read it.
    answer = WebDriverWait(browser, 120).until(
        lambda driver: driver.find_element(By.ID, "answer")
    )
    assert "No invariant game has them" in answer.text
    assert "forced N (0,0)" in answer.text
    pictures = answer.find_elements(By.CSS_SELECTOR, "svg.plot")
    assert len(pictures) >= 2 and all(p.is_displayed() for p in pictures)
    answer.find_element(By.CSS_SELECTOR, "ol.games a").click()
    WebDriverWait(browser, 120).until(
        lambda driver: driver.current_url.endswith("/W000002")
    )
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []


def test_console_errors_are_seen(browser, base):
    """The check above can fail: a missing page logs a SEVERE entry."""
    browser.get_log("browser")
    browser.get(base + "/W999999")
    assert any(e["level"] == "SEVERE" for e in browser.get_log("browser"))


def test_an_invariant_is_one_click_from_its_table(browser, base):
    """Follow the family table's invariant to its definition, rendered by
    the server from docs/ with the site's own style."""
    browser.get(base + "/families/box?invariant=offset")
    browser.find_element(
        By.CSS_SELECTOR, "h2 a[href='/docs/invariants/offset']"
    ).click()
    WebDriverWait(browser, 60).until(
        lambda driver: driver.current_url.endswith("/docs/invariants/offset")
    )
    assert browser.find_element(By.TAG_NAME, "h1").text == "Offset (dx, dy)"
    assert (
        "altered Wythoff games"
        in browser.find_element(By.CSS_SELECTOR, "article.doc").text
    )
    header = browser.find_element(By.CSS_SELECTOR, "header.site")
    assert header.value_of_css_property("background-color") == "rgba(36, 82, 122, 1)"
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []
