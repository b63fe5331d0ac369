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
