import { describe, expect, test } from "vitest";
import { baseUrl } from "@/test/helpers/http";

// What a deployed admin app serves from public/, and what it must not serve.
describe("public files", () => {
  test("robots.txt keeps the whole app out of search engines", async () => {
    const res = await fetch(`${baseUrl()}/robots.txt`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("User-agent: *\nDisallow: /\n");
  });

  test("pages say noindex and name the icon, which is served", async () => {
    const html = await (await fetch(`${baseUrl()}/sign-in`)).text();
    expect(html).toMatch(/<meta name="robots" content="noindex, nofollow"\/>/);
    expect(html).toMatch(/<link rel="icon" href="\/icon.svg"\/>/);
    const icon = await fetch(`${baseUrl()}/icon.svg`);
    expect([icon.status, icon.headers.get("content-type")]).toEqual([200, "image/svg+xml"]);
  });

  test("the benchmark's empty page is not part of the production build", async () => {
    const res = await fetch(`${baseUrl()}/bench-empty`, { redirect: "manual" });
    expect(res.status).toBe(404);
  });
});
