"""SQL: a billing schema file; a SQL function over two tables, keyword case and reflow cosmetic."""

from .base import LangCase, cut

FUNCTION = """\
CREATE OR REPLACE FUNCTION billing.overdue_total(cust BIGINT, grace_days INTEGER)
RETURNS BIGINT
LANGUAGE sql STABLE AS $$
    SELECT COALESCE(SUM(i.amount_cents - i.paid_cents), 0)
    FROM billing.invoices AS i
    JOIN billing.customers AS c ON c.id = i.customer_id
    WHERE i.customer_id = cust
      AND i.status = 'open'
      AND i.due_on < CURRENT_DATE - grace_days
      AND c.deleted_at IS NULL;
$$;
"""

SOURCE = f"""\
-- Billing schema: invoices per customer, amounts in cents.
CREATE SCHEMA billing;

CREATE TABLE billing.customers (
    id BIGSERIAL PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    deleted_at TIMESTAMPTZ
);

CREATE TABLE billing.invoices (
    id BIGSERIAL PRIMARY KEY,
    customer_id BIGINT NOT NULL REFERENCES billing.customers (id),
    amount_cents INTEGER NOT NULL CHECK (amount_cents >= 0),
    paid_cents INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'draft',
    due_on DATE NOT NULL
);

CREATE INDEX invoices_customer_idx ON billing.invoices (customer_id);

{FUNCTION}
CREATE VIEW billing.open_invoices AS
SELECT id, customer_id, amount_cents FROM billing.invoices WHERE status = 'open';
"""


def _with(old: str, new: str) -> str:
    assert old in SOURCE, old
    return SOURCE.replace(old, new)


SQL = LangCase(
    name="sql",
    path="db/schema.sql",
    other_path="db/migrations/0042_overdue.sql",
    symbol="billing.overdue_total",
    source=SOURCE,
    cosmetic=_with(
        "    SELECT COALESCE(SUM(i.amount_cents - i.paid_cents), 0)\n    FROM billing.invoices AS i\n",
        "    -- what is still owed\n    select coalesce(sum(i.amount_cents - i.paid_cents), 0)\n\n    from billing.invoices as i /* open ones below */\n",
    ),
    edited=_with("AND i.status = 'open'", "AND i.status = 'sent'"),
    edited_line="AND i.status = 'sent'",
    renamed=_with("FUNCTION billing.overdue_total(", "FUNCTION billing.overdue_cents("),
    new_symbol="billing.overdue_cents",
    without=cut(SOURCE, "CREATE OR REPLACE FUNCTION", "CREATE VIEW"),
    moved_to=f"-- 0042: overdue totals for dunning\n\n{FUNCTION}",
    moved_symbol="billing.overdue_total",
    duplicated=_with("FUNCTION billing.overdue_total(", "FUNCTION billing.overdue_a(")
    + "\n"
    + FUNCTION.replace("FUNCTION billing.overdue_total(", "FUNCTION reporting.overdue_b("),
    trivial=SOURCE + "\nCREATE VIEW one AS SELECT 1;\n",
    trivial_symbol="one",
    trivial_renamed=SOURCE + "\nCREATE VIEW uno AS SELECT 1;\n",
    real_edits=(
        (
            "literal",
            _with(
                "COALESCE(SUM(i.amount_cents - i.paid_cents), 0)", "COALESCE(SUM(i.amount_cents - i.paid_cents), -1)"
            ),
        ),
        ("operator", _with("i.due_on < CURRENT_DATE", "i.due_on <= CURRENT_DATE")),
        ("called name", _with("SUM(i.amount_cents", "MAX(i.amount_cents")),
        (
            "condition order",
            _with(
                "      AND i.status = 'open'\n      AND i.due_on < CURRENT_DATE - grace_days\n",
                "      AND i.due_on < CURRENT_DATE - grace_days\n      AND i.status = 'open'\n",
            ),
        ),
        ("join kind", _with("    JOIN billing.customers AS c", "    LEFT JOIN billing.customers AS c")),
        ("volatility", _with("LANGUAGE sql STABLE AS", "LANGUAGE sql VOLATILE AS")),
    ),
    cosmetic_edits=(
        (
            "comments",
            _with(
                "      AND c.deleted_at IS NULL;\n",
                "      AND c.deleted_at IS NULL; -- soft-deleted customers owe nothing\n",
            ),
        ),
        ("blank lines", _with("    WHERE i.customer_id = cust\n", "\n    WHERE i.customer_id = cust\n\n")),
        (
            "keyword case",
            _with("    WHERE i.customer_id = cust\n      AND", "    where i.customer_id = cust\n      and"),
        ),
        ("unquoted name case", _with("FROM billing.invoices AS i", "FROM Billing.Invoices AS i")),
        (
            "redundant parentheses",
            _with("AND i.due_on < CURRENT_DATE - grace_days", "AND i.due_on < (CURRENT_DATE - grace_days)"),
        ),
        (
            "reflow",
            _with(
                "CREATE OR REPLACE FUNCTION billing.overdue_total(cust BIGINT, grace_days INTEGER)\nRETURNS BIGINT\nLANGUAGE sql STABLE AS $$\n",
                "CREATE OR REPLACE FUNCTION billing.overdue_total(\n    cust BIGINT,\n    grace_days INTEGER\n) RETURNS BIGINT LANGUAGE sql STABLE AS $$\n",
            ),
        ),
    ),
)
