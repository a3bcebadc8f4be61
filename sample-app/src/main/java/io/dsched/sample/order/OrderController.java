package io.dsched.sample.order;

import java.math.BigDecimal;
import java.net.URI;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * REST API of the orders: {@code POST /orders} places one, {@code POST /orders/{id}/pay} pays it,
 * {@code GET /orders/{id}} shows it, {@code GET /orders} lists the newest.
 */
@RestController
@RequestMapping("/orders")
public class OrderController {

    private static final int MAX_LIMIT = 500;

    private final OrderService orders;

    /**
     * Creates the controller.
     * @param orders the orders
     */
    public OrderController(OrderService orders) {
        this.orders = orders;
    }

    /**
     * Places an order awaiting payment.
     * @param request the order's amount
     * @return the new order, with its location
     * @throws IllegalArgumentException (a 400) if the amount breaks a rule of {@link OrderAmount}
     */
    @PostMapping
    public ResponseEntity<Order> place(@RequestBody NewOrder request) {
        // checked before the service's transaction takes a connection from the pool the scheduler shares
        BigDecimal amount = OrderAmount.cents(request.amount());
        Order order = this.orders.place(amount);
        return ResponseEntity.created(URI.create("/orders/" + order.id())).body(order);
    }

    /**
     * Shows an order.
     * @param id the order
     * @return the order
     */
    @GetMapping("/{id}")
    public Order show(@PathVariable long id) {
        return this.orders.find(id).orElseThrow(() -> new OrderNotFoundException(id));
    }

    /**
     * Pays an order; paying it again changes nothing.
     * @param id the order
     * @return the order as it is now
     */
    @PostMapping("/{id}/pay")
    public Order pay(@PathVariable long id) {
        return this.orders.pay(id);
    }

    /**
     * Lists the newest orders.
     * @param limit how many at most, 1 to 500
     * @return the orders, newest first
     */
    @GetMapping
    public List<Order> list(@RequestParam(defaultValue = "100") int limit) {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "limit must be between 1 and " + MAX_LIMIT);
        }
        return this.orders.newest(limit);
    }

    @ExceptionHandler(OrderNotFoundException.class)
    ProblemDetail notFound(OrderNotFoundException ex) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, ex.getMessage());
    }

    @ExceptionHandler(OrderCancelledException.class)
    ProblemDetail cancelled(OrderCancelledException ex) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, ex.getMessage());
    }

    @ExceptionHandler(IllegalArgumentException.class)
    ProblemDetail badRequest(IllegalArgumentException ex) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, ex.getMessage());
    }
}
