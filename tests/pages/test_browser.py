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
from selenium.webdriver.support.ui import Select, WebDriverWait

from catalog import service
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


def _arrive(browser, what: str) -> None:
    """The page the browser is on answered 200 and logged no error."""
    status = browser.execute_script(
        "return performance.getEntriesByType('navigation')[0].responseStatus"
    )
    assert status == 200, (what, status, browser.current_url)
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == [], (what, errors)


def _hrefs(browser) -> list[str]:
    """Every link's address on the page, read in one round trip."""
    return browser.execute_script(
        "return Array.from(document.querySelectorAll('a[href]'), a => a.href);"
    )


@pytest.fixture
def narrowed(app, tmp_path):
    """The module's catalog served with the families' integer parameters up
    to 4 (a 90 x 90 table took seconds a page in Chromium on a loaded
    machine), their stored members and labels as they are."""
    from tests.api.conftest import make_app
    from tests.store.narrowed import small_families

    url = app.extensions["catalog"].settings.database_url
    small = make_app(url, False)
    store = small.extensions["catalog"]
    store.families = small_families(
        tmp_path, **dict.fromkeys(["box", "cell", "maharaja", "adjoined"], 4)
    )
    base, stop = serve(small)
    yield base, store
    stop()
    store.dispose()


def test_every_link_and_menu_choice_of_every_family_page(browser, narrowed):
    """Every family's page, every choice of its menu of invariants (submitted
    as a reader would, hidden fields and all) and every link on them lead to
    a page, not an error: nimhoff's menu answered 422 for every choice."""
    base, store = narrowed
    names = [f["name"] for f in service.families(store)["families"]]
    assert {"nimhoff", "nimhoff-misere", "cell", "box"} <= set(names)
    links: dict[str, str] = {}
    browser.get_log("browser")
    for name in names:
        url = f"{base}/families/{name}"
        browser.get(url)
        _arrive(browser, url)
        links.update(dict.fromkeys(_hrefs(browser), url) | links)
        choices = [
            o.text for o in Select(browser.find_element(By.ID, "fam-inv")).options
        ]
        assert choices, url
        for choice in choices:
            # Each answer has the same form: the next choice is made there.
            menu = Select(browser.find_element(By.ID, "fam-inv"))
            menu.select_by_visible_text(choice)
            form = browser.find_element(
                By.CSS_SELECTOR, f"form[action$='/families/{name}']"
            )
            form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
            WebDriverWait(browser, 60).until(
                lambda driver, c=choice: f"invariant={c}" in driver.current_url
            )
            _arrive(browser, f"{url}: {choice}")
            assert browser.find_elements(By.CSS_SELECTOR, "table.grid"), (url, choice)
            links.update(dict.fromkeys(_hrefs(browser), f"{url}: {choice}") | links)
    outside = [href for href in links if not href.startswith(base + "/")]
    assert outside == []
    # Each link fetched by the page's own script, as the browser would
    # follow it (rendering every one of them took minutes on a loaded machine).
    browser.set_script_timeout(120)
    answers = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "Promise.all(arguments[0].map(h => fetch(h).then(r => [h, r.status],"
        " e => [h, String(e)]))).then(done);",
        sorted(links),
    )
    assert len(answers) == len(links) > len(names)
    assert [(h, links[h]) for h, status in answers if status != 200] == []
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []
