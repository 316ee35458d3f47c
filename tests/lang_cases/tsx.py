"""TSX: a React component that loads with retries and renders JSX; JSX layout is cosmetic."""

from .base import LangCase, cut

COMPONENT = """\
export function UserList({ url, attempts = RETRIES }: Props) {
  const [users, setUsers] = useState<User[]>([]);
  useEffect(() => {
    let delay = 500;
    const load = async (attempt: number): Promise<void> => {
      const response = await fetch(url, { mode: "cors" });
      if (response.status < 500) {
        setUsers(await response.json());
      } else if (attempt < attempts) {
        setTimeout(() => load(attempt + 1), delay * 2 ** attempt);
      }
    };
    load(0);
  }, [url, attempts]);
  return (
    <ul className="users">
      {users.map((user) => <li key={user.id}>Hello {user.name}, welcome back</li>)}
    </ul>
  );
}
"""

SOURCE = f"""\
import {{ useEffect, useState }} from "react";
import type {{ User }} from "./types";

export const RETRIES = 3;

interface Props {{
  url: string;
  attempts?: number;
}}

{COMPONENT}
export function Empty() {{
  return <p className="empty">No users yet.</p>;
}}
"""


def _with(old: str, new: str) -> str:
    assert old in SOURCE, old
    return SOURCE.replace(old, new)


TSX = LangCase(
    name="tsx",
    path="src/UserList.tsx",
    other_path="src/components/Users.tsx",
    symbol="UserList",
    source=SOURCE,
    cosmetic=_with(
        "    let delay = 500;\n", "    // back off exponentially\n\n    let delay = 500; /* ms */\n"
    ).replace(
        "      {users.map((user) => <li key={user.id}>Hello {user.name}, welcome back</li>)}\n",
        "      {users.map((user) => (\n        <li key={user.id}>\n          Hello {user.name}, welcome\n          back\n        </li>\n      ))}\n",
    ),
    edited=_with('fetch(url, { mode: "cors" })', 'fetch(url, { mode: "no-cors" })'),
    edited_line='const response = await fetch(url, { mode: "no-cors" });',
    renamed=_with("export function UserList(", "export function PeopleList("),
    new_symbol="PeopleList",
    without=cut(SOURCE, "export function UserList", "export function Empty"),
    moved_to=f'import {{ useEffect, useState }} from "react";\n\n{COMPONENT}',
    moved_symbol="UserList",
    duplicated=_with("export function UserList(", "export function ListA(")
    + "\n"
    + COMPONENT.replace("export function UserList(", "export function ListB("),
    trivial=SOURCE + "\nexport function Nothing() {\n  return null;\n}\n",
    trivial_symbol="Nothing",
    trivial_renamed=SOURCE + "\nexport function Blank() {\n  return null;\n}\n",
    real_edits=(
        ("literal", _with("let delay = 500;", "let delay = 250;")),
        ("operator", _with("response.status < 500", "response.status <= 500")),
        ("called name", _with("setUsers(await response.json())", "setUsers(await response.text())")),
        (
            "statement order",
            _with("    let delay = 500;\n", "").replace("    load(0);\n", "    let delay = 500;\n    load(0);\n"),
        ),
        ("jsx text", _with("welcome back</li>", "welcome home</li>")),
        ("jsx attribute", _with('<ul className="users">', '<ul className="people">')),
    ),
    cosmetic_edits=(
        (
            "jsx comment",
            _with('    <ul className="users">\n', '    <ul className="users">\n      {/* one row per user */}\n'),
        ),
        ("blank lines", _with("    let delay = 500;\n", "\n    let delay = 500;\n\n")),
        ("no semicolons", SOURCE.replace(COMPONENT, COMPONENT.replace(";\n", "\n"))),
        (
            "quote style",
            _with('<ul className="users">', "<ul className='users'>").replace('mode: "cors"', "mode: 'cors'"),
        ),
        ("arrow parameter parentheses", _with("users.map((user) =>", "users.map(user =>")),
        (
            "jsx line breaks",
            _with(
                '    <ul className="users">\n      {users.map',
                '    <ul\n      className="users"\n    >\n      {users.map',
            ),
        ),
    ),
)
