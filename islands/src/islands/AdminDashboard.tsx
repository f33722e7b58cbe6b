// /admin: five stat cards and the Client Management, Booking Management, Sessions Management
// and Add Payment tabs (spec §2), Discount Codes (issue 22), Sponsors (issue 23) and System
// (issue 24: the status page).
// Signed-out visitors go to /auth, non-admins to /dashboard.
import * as Tabs from "@radix-ui/react-tabs";
import { Suspense, lazy, useEffect, useRef, useState } from "react";
import { toast } from "../lib/toast";
import { BookingsTab } from "../admin/BookingsTab";
import { ClientsTab } from "../admin/ClientsTab";
import { AdminHead } from "../admin/AdminHead";
import { PaymentsTab } from "../admin/PaymentsTab";
import { SessionsTab } from "../admin/SessionsTab";
import { StatCards } from "../admin/StatCards";
import { type AdminStats, type ClientRow, type SchedulerInfo } from "../api/types";
import { LoadFailed, TabBoundary, loadError, useAdminSession } from "../admin/guard";
import { preloadDialogs } from "../admin/lazy";
import { GET } from "../lib/api";
import { dir, loadMessages, t } from "../lib/i18n";
import { mountIsland } from "../lib/mount";
import { Spinner } from "../lib/ui";

const TABS = ["clients", "bookings", "sessions", "payments", "discounts", "sponsors", "system"] as const;
type Tab = (typeof TABS)[number];

// The Discount Codes tab (and zod with its form) loads when first shown, or hovered or focused.
const loadDiscounts = () => import("../admin/DiscountsTab");
const DiscountsTab = lazy(() => loadDiscounts().then((m) => ({ default: m.DiscountsTab })));
const preloadDiscounts = () => void loadDiscounts().catch(() => undefined);
// The Sponsors tab loads the same way, with its own messages (sponsors).
let sponsorsPending: Promise<typeof import("../admin/SponsorsTab")> | null = null;
const loadSponsors = () =>
  (sponsorsPending ??= Promise.all([import("../admin/SponsorsTab"), loadMessages(["sponsors"])])
    .then(([m]) => m)
    .catch((e: unknown) => {
      sponsorsPending = null;
      throw e;
    }));
const SponsorsTab = lazy(() => loadSponsors().then((m) => ({ default: m.SponsorsTab })));
const preloadSponsors = () => void loadSponsors().catch(() => undefined);
// And the System tab, with its messages (system).
let systemPending: Promise<typeof import("../admin/SystemTab")> | null = null;
const loadSystem = () =>
  (systemPending ??= Promise.all([import("../admin/SystemTab"), loadMessages(["system"])])
    .then(([m]) => m)
    .catch((e: unknown) => {
      systemPending = null;
      throw e;
    }));
const SystemTab = lazy(() => loadSystem().then((m) => ({ default: m.SystemTab })));
const preloadSystem = () => void loadSystem().catch(() => undefined);

function initialTab(): Tab {
  const h = window.location.hash.slice(1);
  return (TABS as readonly string[]).includes(h) ? (h as Tab) : "clients";
}

function AdminDashboard() {
  const { session, failed } = useAdminSession();
  const [stats, setStats] = useState<AdminStats | null>(null);
  const [clients, setClients] = useState<ClientRow[]>([]);
  const [scheduler, setScheduler] = useState<SchedulerInfo | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [refreshKey, setRefreshKey] = useState(0);
  const [tab, setTab] = useState<Tab>(initialTab);
  const tabList = useRef<HTMLDivElement>(null);

  // Stats and the client list (for the sessions filters and the phone booking), again after
  // every change made here.
  useEffect(() => {
    if (!session) return;
    let live = true;
    Promise.all([GET("/api/admin/stats"), GET("/api/admin/clients")])
      .then(([s, c]) => {
        if (!live) return;
        setStats(s);
        setClients(c);
      })
      .catch(() => {
        if (!live) return;
        toast.error(t("common.error.title"), { description: loadError() });
        setLoadFailed((was) => was || stats === null);
      });
    return () => {
      live = false;
    };
    // `stats` is read only to tell a first load from a refresh.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [session, refreshKey]);

  // The external scheduling page (for the Booking Management link); optional.
  useEffect(() => {
    if (!session) return;
    GET("/api/dashboard")
      .then((d) => setScheduler({ schedulerUrl: d.schedulerUrl, schedulerName: d.schedulerName }))
      .catch(() => setScheduler(null));
  }, [session]);

  // Fetch the dialogs' code once the page is up, so the first click does not wait for it.
  const ready = stats !== null;
  useEffect(() => {
    if (!ready) return;
    const idle = window.requestIdleCallback ?? ((cb: () => void) => window.setTimeout(cb, 1500));
    idle(() => preloadDialogs());
  }, [ready]);

  // On narrow screens the tab list scrolls sideways: keep the active tab in sight.
  useEffect(() => {
    const list = tabList.current;
    const active = list?.querySelector<HTMLElement>('[data-state="active"]');
    if (!list || !active) return;
    if (dir() === "rtl") {
      // Right to left the list starts at its right edge (scrollLeft 0, negative leftwards).
      list.scrollLeft += active.getBoundingClientRect().right - list.getBoundingClientRect().right + 16;
    } else list.scrollLeft = Math.max(0, active.offsetLeft - 16); // the list is positioned (admin.css)
  }, [tab, ready]);

  if (failed || loadFailed) return <LoadFailed />;
  if (!session || !stats) return <Spinner label={t("admin.loading")} />;

  const refresh = () => setRefreshKey((k) => k + 1);
  return (
    <div className="admin">
      <AdminHead session={session} />

      <StatCards stats={stats} />

      <Tabs.Root
        className="tabs admin-tabs"
        dir={dir()}
        value={tab}
        onValueChange={(v) => {
          setTab(v as Tab);
          window.history.replaceState(null, "", `#${v}`);
        }}
      >
        <Tabs.List className="tabs__list" aria-label={t("admin.tabs.label")} ref={tabList}>
          <Tabs.Trigger className="tabs__trigger" value="clients">
            {t("admin.tabs.clients")}
          </Tabs.Trigger>
          <Tabs.Trigger className="tabs__trigger" value="bookings">
            {t("admin.tabs.bookings")}
          </Tabs.Trigger>
          <Tabs.Trigger className="tabs__trigger" value="sessions">
            {t("admin.tabs.sessions")}
          </Tabs.Trigger>
          <Tabs.Trigger className="tabs__trigger" value="payments" onPointerEnter={preloadDialogs} onFocus={preloadDialogs}>
            {t("admin.tabs.payments")}
          </Tabs.Trigger>
          <Tabs.Trigger className="tabs__trigger" value="discounts" onPointerEnter={preloadDiscounts} onFocus={preloadDiscounts}>
            {t("admin.discounts.tab")}
          </Tabs.Trigger>
          <Tabs.Trigger className="tabs__trigger" value="sponsors" onPointerEnter={preloadSponsors} onFocus={preloadSponsors}>
            {t("admin.tabs.sponsors")}
          </Tabs.Trigger>
          <Tabs.Trigger className="tabs__trigger" value="system" onPointerEnter={preloadSystem} onFocus={preloadSystem}>
            {t("admin.tabs.system")}
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content className="tabs__panel" value="clients">
          <ClientsTab refreshKey={refreshKey} onChanged={refresh} />
        </Tabs.Content>
        <Tabs.Content className="tabs__panel" value="bookings">
          <BookingsTab scheduler={scheduler} clients={clients} refreshKey={refreshKey} onChanged={refresh} />
        </Tabs.Content>
        <Tabs.Content className="tabs__panel" value="sessions">
          <SessionsTab clients={clients} refreshKey={refreshKey} onChanged={refresh} />
        </Tabs.Content>
        <Tabs.Content className="tabs__panel" value="payments">
          <PaymentsTab />
        </Tabs.Content>
        <Tabs.Content className="tabs__panel" value="discounts">
          <TabBoundary>
            <Suspense fallback={<Spinner label={t("admin.discounts.loading")} />}>
              <DiscountsTab />
            </Suspense>
          </TabBoundary>
        </Tabs.Content>
        <Tabs.Content className="tabs__panel" value="sponsors">
          <TabBoundary>
            <Suspense fallback={<Spinner label={t("admin.tabs.sponsorsLoading")} />}>
              <SponsorsTab clients={clients} />
            </Suspense>
          </TabBoundary>
        </Tabs.Content>
        <Tabs.Content className="tabs__panel" value="system">
          <TabBoundary>
            <Suspense fallback={<Spinner label={t("admin.tabs.systemLoading")} />}>
              <SystemTab />
            </Suspense>
          </TabBoundary>
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}

export const mount = mountIsland(AdminDashboard, ["admin", "adminDashboard", "discounts"]);
