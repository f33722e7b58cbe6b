// Shapes of the admin API (GET/POST /api/admin/*, see the OpenAPI document).

export interface AdminStats {
  totalClients: number;
  /** Credits sold: the sum of every client's total credits. */
  totalCredits: number;
  upcomingSessions: number;
  completedSessions: number;
  /** Since the 1st of this month, 2 decimals. */
  revenueThisMonth: number;
}

export interface ClientRow {
  user_id: string;
  full_name: string;
  email: string;
  phone: string | null;
  created_at: string;
  total_credits: number;
  used_credits: number;
  available_credits: number;
  /** Bookings that are not cancelled. */
  session_count: number;
  completed_sessions: number;
  /** Confirmed bookings. */
  upcoming_sessions: number;
}

export interface BookingView {
  id: string;
  clientId: string | null;
  clientName: string | null;
  clientEmail: string | null;
  sessionDate: string;
  status: string;
  createdAt: string;
  cancelledAt: string | null;
  googleMeetLink: string | null;
  sessionNotes: string | null;
  /** calendly, phone or admin. */
  source: string;
}

export interface CreatedUser {
  success: boolean;
  userId: string;
  email: string;
  role: string;
  availableCredits: number;
}

export interface PaymentRecordView {
  id: string;
  amount: number;
  currency: string;
  sessionsPurchased: number;
  paymentDate: string;
  paymentMethod: string;
  referenceNumber: string | null;
}

/** The part of GET /api/dashboard the admin pages use: the external scheduling page. */
export interface SchedulerInfo {
  schedulerUrl: string;
  schedulerName: string;
}
