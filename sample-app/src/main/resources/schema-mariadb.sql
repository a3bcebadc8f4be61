-- Orders of the sample shop, on MariaDB (MySQL 8 untested). Idempotent: creates only what is missing.
-- Timestamps are UTC; DATETIME, unlike TIMESTAMP, is never converted or auto-updated by the server.
CREATE TABLE IF NOT EXISTS sample_order (
    id         BIGINT AUTO_INCREMENT PRIMARY KEY,
    status     VARCHAR(20)    NOT NULL,
    amount     DECIMAL(12, 2) NOT NULL,
    created_at DATETIME(6)    NOT NULL,
    settled_at DATETIME(6),
    INDEX idx_sample_order_status (status, created_at)
);
