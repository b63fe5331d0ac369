/** Payload shapes shared by the server and the portal. */
export interface Dataset<T = Record<string, unknown>> {
  content: T[];
  totalPages: number;
  totalElements: number;
  /** True when totalElements is an estimate or a lower bound (very large tables). */
  totalIsEstimate?: boolean;
  /** Set when the size asked for was above what one page returns (LIST_PAGE_CAP) and rows were held back: the size used. */
  sizeCappedTo?: number;
}

export interface ListResponse<T = Record<string, unknown>> {
  dataset: Dataset<T>;
}

export interface MeResponse {
  id: number;
  name: string;
  username: string;
  privileges: string[];
  max_role_level: number;
  role: string;
  roles: string[];
  home_screen: string;
}

export interface LoginResponse {
  token: string;
}

/** One message of the OCPP tester's and charger simulator's sets; name is unique in its set. */
export interface TesterMessage {
  name: string;
  action: string;
  direction: 'in' | 'out';
}

/** The cp_requests row a tester message wrote, as the tester shows it. */
export interface StoredRequest {
  req_id: number;
  request_type: number;
  cp_no: string;
  connector_id: number | null;
  connector_status: string | null;
  uuid: string | null;
  cre_dttm: string;
  request_data: unknown;
  response_data: unknown;
}

/** POST /api/test/cp_request (and /api/lms/cp_simulator): the answer, and the row written for users who may not read cp_requests. */
export interface TesterAnswer {
  status: 'success' | 'error';
  errorCode?: number;
  message?: string;
  data: { response: unknown; request_id: number | null; request?: StoredRequest | null };
}
