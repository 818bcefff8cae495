// The dashboard over plain HTTP, for tests that send what no browser would (many forms at once, a
// form sent again) or measure: a form's cookie and CSRF token read from its page, as a browser
// would hold them, and signing in with them.

/** A browser's hold on the dashboard: its cookies (`name=value; ...`: the session's, or the sign-in form's) and the last page's form token. */
export interface HttpSession {
  cookie: string;
  csrf: string;
}

/** The session cookie of a Set-Cookie answer, if any, as `name=value`. */
function cookieOf(response: Response): string | undefined {
  return response.headers
    .getSetCookie()
    .find((line) => line.startsWith("asset_delivery_session="))
    ?.split(";")[0];
}

/** The cookies a browser holds after this answer: those it had, each replaced by a new value the answer sets. */
function cookiesAfter(held: string | undefined, response: Response): string {
  const jar = new Map<string, string>();
  for (const pair of (held ?? "").split("; ").filter(Boolean)) jar.set(pair.split("=")[0]!, pair);
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(";")[0]!;
    jar.set(pair.split("=")[0]!, pair);
  }
  return [...jar.values()].join("; ");
}

/** The `_csrf` of the first form of a page. */
export function csrfOf(html: string): string {
  const token = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error("no form token on the page");
  return token;
}

/** Opens a page with the session's cookie; takes the new cookie and form token it hands out. */
export async function openPage(
  baseUrl: string,
  session: HttpSession | undefined,
  pathname: string,
  headers: Record<string, string> = {},
): Promise<{ response: Response; html: string; session: HttpSession }> {
  const response = await fetch(`${baseUrl}${pathname}`, {
    headers: { ...headers, ...(session && { cookie: session.cookie }) },
    redirect: "manual",
  });
  const html = await response.text();
  const cookie = cookiesAfter(session?.cookie, response);
  const csrf = /name="_csrf"/.test(html) ? csrfOf(html) : (session?.csrf ?? "");
  return { response, html, session: { cookie, csrf } };
}

/** Posts a form of the dashboard with the session's cookie and token, as the browser would. */
export function postForm(
  baseUrl: string,
  session: HttpSession,
  pathname: string,
  fields: Record<string, string | string[]>,
  headers: Record<string, string> = {},
): Promise<Response> {
  const body = new URLSearchParams({ _csrf: session.csrf });
  for (const [name, value] of Object.entries(fields)) for (const item of [value].flat()) body.append(name, item);
  return fetch(`${baseUrl}${pathname}`, {
    method: "POST",
    headers: { ...headers, cookie: session.cookie, "content-type": "application/x-www-form-urlencoded" },
    body,
    redirect: "manual",
  });
}

/** Signs in through the form; the session that results. */
export async function signInOverHttp(
  baseUrl: string,
  email: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<HttpSession> {
  const form = await openPage(baseUrl, undefined, "/dashboard/login", headers);
  const answer = await postForm(baseUrl, form.session, "/dashboard/login", { email, password }, headers);
  if (answer.status !== 303) throw new Error(`signing in answered ${answer.status}, not 303 (to the dashboard)`);
  const cookie = cookieOf(answer)!;
  const page = await openPage(baseUrl, { cookie, csrf: "" }, "/dashboard/keys", headers);
  return page.session;
}
